import { DownlineScreen } from '../../features/reports/components/downline-screen.tsx';

/** docs/product/screens.md#downline-report: the admin's, a super agent's or an agent's downline report. */
export function ReportsRoute() {
  return <DownlineScreen />;
}
