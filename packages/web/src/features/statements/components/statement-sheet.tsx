import type { Statement, StatementMovement } from '@lot/domain/schemas/reports';
import { dayIn } from '@lot/domain/dates';
import { gameTitle } from '@lot/domain/game';
import { statementKindLabel } from '@lot/domain/statement-kinds';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { EmptyState, Figure } from '../../../components/ui/panels.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { formatPeriod } from '../../../lib/periods.ts';
import { STATEMENT_PAGE_SIZE } from '../api/get-statement.ts';

/** Money in `+$5.00` in green, out `-$5.00` in red, nothing `$0.00` in grey. */
function Signed({ amount, testId }: { amount: string; testId?: string }) {
  const cents = decimalToCents(amount);
  const tone = cents > 0 ? 'text-emerald-700' : cents < 0 ? 'text-rose-700' : 'text-slate-500';
  return (
    <span data-testid={testId} className={`font-semibold tabular-nums ${tone}`}>
      {cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents)}
    </span>
  );
}

const COLUMNS: Column<StatementMovement>[] = [
  {
    key: 'at',
    header: 'Date',
    className: 'order-1 text-slate-600 whitespace-nowrap',
    render: (movement) => dateTime(movement.at),
  },
  {
    key: 'kind',
    header: 'Kind',
    className: 'order-3 font-medium text-slate-900 lg:whitespace-nowrap',
    render: (movement) => <span data-testid="movement-kind">{statementKindLabel(movement.kind)}</span>,
  },
  {
    key: 'counterparty',
    header: 'Counterparty',
    label: 'With',
    className: 'order-5 col-span-2 truncate text-slate-700',
    render: (movement) =>
      movement.counterparty ? (
        <span title={`@${movement.counterparty.username}`}>{movement.counterparty.fullName}</span>
      ) : (
        <span className="text-slate-500">—</span>
      ),
  },
  {
    key: 'description',
    header: 'Description',
    label: 'Details',
    className: 'order-6 col-span-2 text-slate-600 break-words print:[overflow-wrap:anywhere]',
    render: (movement) => {
      const game = movement.gameNumber !== null ? gameTitle(movement.gameNumber) : movement.gameCode ? 'Game' : null;
      const parts = [game, movement.description].filter(Boolean);
      return parts.length > 0 ? parts.join(' · ') : <span className="text-slate-500">—</span>;
    },
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    className: 'order-2 text-right',
    render: (movement) => <Signed amount={movement.amount} testId="movement-amount" />,
  },
  {
    key: 'balance',
    header: 'Balance',
    align: 'right',
    label: 'Balance',
    className: 'order-4 text-right font-semibold text-slate-900 tabular-nums',
    render: (movement) => <span data-testid="movement-balance">{money(movement.balance)}</span>,
  },
];

/** The statement itself, what prints: the account, the period, the four sums and the movements, paged. */
export function StatementSheet({
  statement,
  page,
  onPage,
  fetching,
}: {
  statement: Statement;
  page: number;
  onPage: (page: number) => void;
  fetching: boolean;
}) {
  return (
    <article
      data-testid="statement-sheet"
      aria-labelledby="statement-account"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 print:rounded-none print:p-0 print:shadow-none print:ring-0"
    >
      <header className="border-b border-slate-200 pb-4">
        <p className="text-xs font-semibold tracking-widest text-indigo-600 uppercase">Statement</p>
        <h3
          id="statement-account"
          data-testid="statement-account"
          className="text-2xl font-bold break-words text-slate-900"
        >
          {statement.fullName}
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          @{statement.username} ·{' '}
          <span data-testid="statement-period" className="font-semibold text-slate-900">
            {formatPeriod({
              from: dayIn(statement.timeZone, new Date(statement.from)),
              to: lastDay(statement.to, statement.timeZone),
            })}
          </span>
          , {statement.timeZone}
        </p>
      </header>

      <div className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4 print:grid-cols-4">
        <Figure label="Opening balance" testId="statement-opening" className="print:px-3 print:py-2">
          {money(statement.openingBalance)}
        </Figure>
        <Figure label="Money in" testId="statement-total-in" className="print:px-3 print:py-2">
          {money(statement.totalIn)}
        </Figure>
        <Figure label="Money out" testId="statement-total-out" className="print:px-3 print:py-2">
          {money(statement.totalOut)}
        </Figure>
        <Figure label="Closing balance" testId="statement-closing" emphasis className="print:px-3 print:py-2">
          {money(statement.closingBalance)}
        </Figure>
      </div>

      <section aria-labelledby="statement-movements" className={`mt-6 space-y-4 ${fetching ? 'opacity-60' : ''}`}>
        <h4 id="statement-movements" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
          Movements
        </h4>
        {statement.total === 0 ? (
          <EmptyState message="No movements in this period: the closing balance is the opening balance." />
        ) : (
          <>
            {statement.offset > 0 && (
              <p className="text-sm text-slate-600">
                Balance before this page:{' '}
                <span data-testid="statement-page-opening" className="font-semibold text-slate-900 tabular-nums">
                  {money(statement.pageOpeningBalance)}
                </span>
              </p>
            )}
            <DataTable
              rows={statement.movements}
              columns={COLUMNS}
              rowKey={(movement) => `${movement.transactionId}-${movement.kind}`}
              rowTestId="statement-movement"
              rowData={(movement) => ({ 'data-kind': movement.kind })}
              rowClassName="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 bg-white break-inside-avoid"
              // On A4 the table fits the page rather than scrolling (a scrolled-off column would not print).
              minWidth="md:min-w-[760px] print:min-w-0! print:text-xs"
              cellClassName="md:px-3 md:py-2.5"
              headerClassName="px-3 py-2.5"
            />
            <div className="print:hidden">
              <Pagination page={page} pageSize={STATEMENT_PAGE_SIZE} total={statement.total} onPage={onPage} />
            </div>
          </>
        )}
      </section>
    </article>
  );
}

/** The last day of a period whose end (exclusive) is `instant`. */
function lastDay(instant: string, timeZone: string): string {
  return dayIn(timeZone, new Date(Date.parse(instant) - 1));
}
