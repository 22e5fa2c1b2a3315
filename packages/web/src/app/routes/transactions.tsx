import { useState } from 'react';
import { ArrowLeftRight, Wallet } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { Card, ErrorPanel, Spinner } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { money } from '../../lib/format.ts';
import { useBalance } from '../../features/transactions/api/get-balance.ts';
import {
  TRANSACTIONS_PAGE_SIZE,
  useTransactions,
  type TransactionTypeFilter,
} from '../../features/transactions/api/get-transactions.ts';
import { TransactionsTable } from '../../features/transactions/components/transactions-table.tsx';
import { TransactionsTotals } from '../../features/transactions/components/transactions-totals.tsx';
import { TransferModal } from '../../features/transactions/components/transfer-modal.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';

const TYPE_OPTIONS: { value: TransactionTypeFilter; label: string }[] = [
  { value: 'all', label: 'All Types' },
  { value: 'topup', label: 'Top Up' },
  { value: 'transfer', label: 'Transfer' },
  { value: 'game', label: 'Game' },
  { value: 'takeback', label: 'Taken back' },
];

/**
 * docs/product/screens.md#transactions, for every role (/transactions, and /admin/transactions where the admin sees
 * every row): the balance, Transfer Funds, a type filter and search, the filtered set's totals, the table, 10 to a
 * page.
 */
export function TransactionsRoute() {
  const user = useCurrentUser();
  const [transferOpen, setTransferOpen] = useState(false);
  const [type, setType] = useState<TransactionTypeFilter>('all');
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), 300);

  // docs/product/screens.md#pagination: a changed filter starts again at page 1.
  const [page, setPage] = useFilterPage(JSON.stringify([type, debouncedSearch]));

  const balance = useBalance();
  const transactions = useTransactions({ page, type, search: debouncedSearch });
  const total = transactions.data?.total ?? 0;

  return (
    <div className="space-y-6">
      <section className="flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-indigo-600 to-violet-600 p-5 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div className="flex items-center gap-4">
          <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-white/15">
            <Wallet className="h-6 w-6" aria-hidden="true" />
          </span>
          <div>
            <p className="text-sm font-medium text-indigo-100">Current Balance</p>
            <p data-testid="balance" className="text-3xl font-bold tracking-tight tabular-nums">
              {balance.data ? money(balance.data.amount) : balance.isError ? '—' : '…'}
            </p>
            {balance.isError && <p className="text-sm text-rose-100">Failed to fetch balance</p>}
          </div>
        </div>
        <Button variant="secondary" className="w-full !text-indigo-700 sm:w-auto" onClick={() => setTransferOpen(true)}>
          <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
          Transfer Funds
        </Button>
      </section>

      <Card
        title={user.role === 'admin' ? 'All Transactions' : 'Transaction History'}
        actions={
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <label className="sr-only" htmlFor="transaction-type">
              Transaction type
            </label>
            <select
              id="transaction-type"
              value={type}
              onChange={(event) => setType(event.target.value as TransactionTypeFilter)}
              className="rounded-lg border-0 py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
            >
              {TYPE_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            <SearchInput label="Search transactions" value={search} onChange={setSearch} />
          </div>
        }
      >
        {transactions.isPending ? (
          <Spinner />
        ) : transactions.isError ? (
          <ErrorPanel message="Failed to fetch transactions" onRetry={() => void transactions.refetch()} />
        ) : (
          <div
            className={`space-y-4 transition-opacity ${transactions.isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={transactions.isFetching}
          >
            <TransactionsTotals totals={transactions.data} />
            <ExportButtons
              path="/api/transactions/export"
              query={{ type: type === 'all' ? undefined : type, search: debouncedSearch || undefined }}
            />
            <TransactionsTable transactions={transactions.data.items} viewerId={user.id} />
            {total > 0 && <Pagination page={page} pageSize={TRANSACTIONS_PAGE_SIZE} total={total} onPage={setPage} />}
          </div>
        )}
      </Card>

      <TransferModal open={transferOpen} onClose={() => setTransferOpen(false)} />
    </div>
  );
}
