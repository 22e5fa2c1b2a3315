import type { ReactNode } from 'react';
import type { Transaction } from '@lot/domain/schemas/balance';
import { EmptyState } from '../../../components/ui/panels.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { viewTransaction, type Direction, type TransactionView } from './transaction-view.ts';

const AMOUNT_TONE: Record<Direction, string> = {
  in: 'text-emerald-600',
  out: 'text-rose-600',
  neutral: 'text-slate-700',
};
const SIGN: Record<Direction, string> = { in: '+', out: '-', neutral: '' };

const STATUS_TONE: Record<TransactionView['statusTone'], string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  yellow: 'bg-amber-50 text-amber-700 ring-amber-600/20',
  red: 'bg-rose-50 text-rose-700 ring-rose-600/20',
};

const TYPE_TONE: Record<string, string> = {
  Received: 'bg-emerald-50 text-emerald-700',
  'Top Up': 'bg-indigo-50 text-indigo-700',
  Transfer: 'bg-sky-50 text-sky-700',
};

const COLUMNS = ['Date', 'Type', 'From', 'To / User', 'Amount', 'Status'] as const;

/**
 * On a phone each row becomes a three-line card (type and amount; from and to; date and status):
 * one DOM serves both layouts, the grid order rearranges the cells and the header row is hidden,
 * so nothing scrolls sideways.
 */
function Cell({ label, children, className = '' }: { label?: string; children: ReactNode; className?: string }) {
  return (
    <td role="cell" className={`min-w-0 md:table-cell md:px-4 md:py-3 md:whitespace-nowrap ${className}`}>
      {label && (
        <span className="mr-1 text-xs text-slate-400 md:hidden" aria-hidden="true">
          {label}
        </span>
      )}
      {children}
    </td>
  );
}

export function TransactionsTable({ transactions, viewerId }: { transactions: Transaction[]; viewerId: number }) {
  if (transactions.length === 0) return <EmptyState message="No transactions found" />;
  return (
    <div className="md:overflow-x-auto md:rounded-xl md:ring-1 md:ring-slate-200">
      <table role="table" className="block w-full text-sm md:table md:min-w-[720px]">
        <thead role="rowgroup" className="hidden bg-slate-50 md:table-header-group">
          <tr role="row">
            {COLUMNS.map((column) => (
              <th
                key={column}
                role="columnheader"
                scope="col"
                className={`px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-500 ${
                  column === 'Amount' ? 'text-right' : 'text-left'
                }`}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody
          role="rowgroup"
          className="block space-y-3 md:table-row-group md:space-y-0 md:divide-y md:divide-slate-100"
        >
          {transactions.map((tx) => {
            const view = viewTransaction(tx, viewerId);
            return (
              <tr
                key={tx.id}
                role="row"
                data-testid="transaction-row"
                className="grid grid-cols-2 items-center gap-x-3 gap-y-1.5 rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200 md:table-row md:rounded-none md:p-0 md:ring-0 md:hover:bg-slate-50"
              >
                <Cell className="order-5 text-xs text-slate-500 md:text-sm md:text-slate-600">
                  <time dateTime={tx.createdAt}>{dateTime(tx.createdAt)}</time>
                </Cell>
                <Cell className="order-1">
                  <span
                    className={`rounded-md px-2 py-0.5 text-xs font-semibold ${TYPE_TONE[view.typeLabel] ?? 'bg-slate-100 text-slate-700'}`}
                  >
                    {view.typeLabel}
                  </span>
                </Cell>
                <Cell label="From" className="order-3 truncate text-slate-900">
                  <span title={tx.user?.fullName}>{view.from}</span>
                </Cell>
                <Cell label="To" className="order-4 truncate text-right text-slate-900 md:text-left">
                  <span title={tx.receiver?.fullName}>{view.to}</span>
                </Cell>
                <Cell
                  className={`order-2 text-right text-base font-semibold tabular-nums md:text-sm ${AMOUNT_TONE[view.direction]}`}
                >
                  <span data-testid="transaction-amount" data-direction={view.direction}>
                    {SIGN[view.direction]}
                    {money(tx.amount)}
                  </span>
                </Cell>
                <Cell className="order-6 text-right md:text-left">
                  <span
                    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONE[view.statusTone]}`}
                  >
                    {view.statusLabel}
                  </span>
                </Cell>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
