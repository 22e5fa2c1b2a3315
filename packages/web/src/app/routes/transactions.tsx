import { Placeholder } from './placeholder.tsx';

export function TransactionsRoute() {
  return <Placeholder title="Transactions" />;
}
