import { Link } from 'react-router';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useRecentTransactions } from '../api/get-recent-transactions.ts';
import { TransactionsTable } from './transactions-table.tsx';

/** The dashboards' 5 latest transactions, with a link to the full list. */
export function RecentTransactionsCard({ viewAllTo, className }: { viewAllTo: string; className?: string }) {
  const me = useCurrentUser();
  const recent = useRecentTransactions();
  return (
    <Card
      title="Recent Transactions"
      className={className}
      actions={
        <Link to={viewAllTo} className="text-sm font-semibold text-indigo-600 hover:text-indigo-700">
          View all
        </Link>
      }
    >
      {recent.isPending ? (
        <Spinner />
      ) : recent.isError ? (
        <ErrorPanel message="Failed to fetch transactions" onRetry={() => void recent.refetch()} />
      ) : (
        <TransactionsTable transactions={recent.data.items} viewerId={me.id} />
      )}
    </Card>
  );
}
