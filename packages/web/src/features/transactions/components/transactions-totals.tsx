import { decimalToCents, formatMoney } from '@lot/domain/money';
import { count } from '../../../lib/format.ts';
import type { TransactionsPage } from '../api/get-transactions.ts';

/** `+$5.00` in green, `-$5.00` in red, `$0.00` in grey: as the table signs its amounts. */
function signed(cents: number) {
  const tone = cents > 0 ? 'text-emerald-700' : cents < 0 ? 'text-rose-700' : 'text-slate-500';
  return { text: cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents), tone };
}

/**
 * docs/product/screens.md#transactions: the totals of every transaction the filter matches, not
 * just the page shown, as the server computes them.
 */
export function TransactionsTotals({ totals }: { totals: TransactionsPage }) {
  const figures = [
    { testId: 'total-count', label: 'Transactions', text: count(totals.total), tone: 'text-slate-900' },
    { testId: 'total-in', label: 'Money In', ...signed(decimalToCents(totals.totalIn)) },
    { testId: 'total-out', label: 'Money Out', ...signed(-decimalToCents(totals.totalOut)) },
    { testId: 'total-net', label: 'Net', ...signed(decimalToCents(totals.net)) },
  ];
  return (
    <section aria-label="Totals of the matching transactions">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.testId} className="rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200">
            <dt className="text-xs font-medium text-slate-500">{figure.label}</dt>
            <dd data-testid={figure.testId} className={`mt-1 text-lg font-bold tabular-nums ${figure.tone}`}>
              {figure.text}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-500">Totals of every transaction that matches the filter, on all pages.</p>
    </section>
  );
}
