import { gameTitle } from '@lot/domain/game';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/panels.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { viewTransaction, type Direction, type LedgerRow, type TransactionView } from './transaction-view.ts';

const AMOUNT_TONE: Record<Direction, string> = {
  in: 'text-emerald-700',
  out: 'text-rose-700',
  neutral: 'text-slate-700',
};
const SIGN: Record<Direction, string> = { in: '+', out: '-', neutral: '' };

const STATUS_TONE: Record<TransactionView['statusTone'], string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  yellow: 'bg-amber-50 text-amber-700 ring-amber-600/20',
  red: 'bg-rose-50 text-rose-700 ring-rose-600/20',
  grey: 'bg-slate-100 text-slate-600 ring-slate-500/20',
};

const TYPE_TONE: Record<string, string> = {
  Received: 'bg-emerald-50 text-emerald-700',
  'Top Up': 'bg-indigo-50 text-indigo-700',
  Transfer: 'bg-sky-50 text-sky-700',
};

type Row = { tx: LedgerRow; view: TransactionView };

/**
 * A game's row: which game ("Game #N", the shop's number) and what it was ('Game played with N
 * numbers, M winners'), linked to its public proof.
 */
function GameLine({ tx }: { tx: LedgerRow }) {
  if (tx.type !== 'game') return null;
  const text =
    [tx.gameNumber === null ? null : gameTitle(tx.gameNumber), tx.description].filter(Boolean).join(' · ') || null;
  if (!text) return null;
  return tx.gameCode ? (
    <Link
      to={`/verify/${tx.gameCode}`}
      data-testid="transaction-game"
      title={`Verify game ${tx.gameCode}`}
      className="mt-1 block text-xs font-medium break-words text-indigo-600 hover:text-indigo-700 hover:underline md:max-w-xs md:truncate"
    >
      {text}
    </Link>
  ) : (
    <span className="mt-1 block text-xs break-words text-slate-500 md:max-w-xs md:truncate">{text}</span>
  );
}

const COLUMNS: Column<Row>[] = [
  {
    key: 'date',
    header: 'Date',
    className: 'order-5 text-xs text-slate-500 md:text-sm md:text-slate-600',
    render: ({ tx }) => <time dateTime={tx.createdAt}>{dateTime(tx.createdAt)}</time>,
  },
  {
    key: 'type',
    header: 'Type',
    className: 'order-1 min-w-0',
    render: ({ tx, view }) => (
      <>
        <span
          className={`rounded-md px-2 py-0.5 text-xs font-semibold ${TYPE_TONE[view.typeLabel] ?? 'bg-slate-100 text-slate-700'}`}
        >
          {view.typeLabel}
        </span>
        <GameLine tx={tx} />
      </>
    ),
  },
  {
    key: 'from',
    header: 'From',
    label: 'From',
    className: 'order-3 truncate text-slate-900',
    render: ({ tx, view }) => <span title={tx.user?.fullName}>{view.from}</span>,
  },
  {
    key: 'to',
    header: 'To / User',
    label: 'To',
    className: 'order-4 truncate text-right text-slate-900 md:text-left',
    render: ({ tx, view }) => <span title={tx.receiver?.fullName}>{view.to}</span>,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    className: ({ view }) =>
      `order-2 text-right text-base font-semibold tabular-nums md:text-sm ${AMOUNT_TONE[view.direction]}`,
    render: ({ tx, view }) => (
      <span
        data-testid="transaction-amount"
        data-direction={view.direction}
        className={tx.status === 'voided' ? 'line-through decoration-slate-400' : undefined}
      >
        {SIGN[view.direction]}
        {money(tx.amount)}
      </span>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    className: 'order-6 text-right md:text-left',
    render: ({ view }) => (
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONE[view.statusTone]}`}
      >
        {view.statusLabel}
      </span>
    ),
  },
];

export function TransactionsTable({
  transactions,
  viewerId,
}: {
  transactions: readonly LedgerRow[];
  viewerId: number;
}) {
  if (transactions.length === 0) return <EmptyState message="No transactions found" />;
  return (
    <DataTable
      rows={transactions.map((tx) => ({ tx, view: viewTransaction(tx, viewerId) }))}
      columns={COLUMNS}
      rowKey={({ tx }) => tx.id}
      rowTestId="transaction-row"
      // On a phone a three-line card: type and amount; from and to; date and status.
      rowClassName="grid grid-cols-2 items-center gap-x-3 gap-y-1.5 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[720px]"
      cellClassName="md:px-4 md:py-3 md:whitespace-nowrap"
    />
  );
}
