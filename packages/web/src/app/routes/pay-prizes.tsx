import { PayPrizesScreen } from '../../features/claims/components/pay-prizes-screen.tsx';

/** docs/product/screens.md#pay-prizes (/user/pay-prizes). */
export function PayPrizesRoute() {
  return <PayPrizesScreen />;
}
