import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import type { GameSummary } from '@lot/domain/schemas/games';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { GameAt } from './game-at.tsx';
import { ProtocolBadge } from './protocol-badge.tsx';

export type VoidedColumn = 'date' | 'user' | 'parent' | 'range' | 'bet' | 'pool' | 'drawn' | 'reason';

const COLUMNS: (Column<GameSummary> & { key: VoidedColumn | 'verify' })[] = [
  {
    key: 'date',
    header: 'Date',
    className:
      'order-2 col-span-3 text-right text-xs whitespace-nowrap text-slate-500 md:text-left md:text-sm md:text-slate-600',
    render: (game) => <GameAt number={game.number} at={game.openedAt} />,
  },
  {
    key: 'user',
    header: 'User',
    className: 'order-1 col-span-3 truncate font-medium text-slate-900',
    render: (game) => <span title={game.user.username}>{game.user.fullName}</span>,
  },
  {
    key: 'parent',
    header: 'Parent',
    className: 'order-3 col-span-6 -mt-1 text-xs text-slate-500 md:mt-0 md:text-sm md:text-slate-700',
    render: (game) => (
      <>
        <span className="md:hidden">Parent: </span>
        {game.user.parent?.fullName ?? '—'}
      </>
    ),
  },
  {
    key: 'range',
    header: 'Range',
    label: 'Range',
    className: 'order-4 col-span-2 md:whitespace-nowrap',
    render: (game) => `${game.startRange}-${game.endRange}`,
  },
  {
    key: 'bet',
    header: 'Bet',
    label: 'Bet',
    align: 'right',
    className: 'order-4 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (game) => money(game.betAmount),
  },
  {
    key: 'pool',
    header: 'Pool',
    label: 'Pool returned',
    align: 'right',
    className: 'order-4 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (game) => money(game.pool),
  },
  {
    key: 'drawn',
    header: 'Drawn',
    label: 'Drawn',
    align: 'right',
    className: 'order-5 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (game) => (
      <span data-testid="voided-drawn">
        {game.drawsCount} of {game.prizesCount}
      </span>
    ),
  },
  {
    key: 'reason',
    header: 'Reason',
    label: 'Reason',
    className: 'order-6 col-span-6 text-slate-700 md:min-w-40',
    render: (game) => (
      <>
        <span data-testid="voided-reason" className="block break-words">
          {game.voidReason ?? '—'}
        </span>
        <span data-testid="voided-by" className="mt-0.5 block text-xs text-slate-500">
          Voided{game.voidedBy ? ` by ${game.voidedBy.fullName}` : ''}
          {game.endedAt && <span className="whitespace-nowrap">, {dateTime(game.endedAt)}</span>}
        </span>
      </>
    ),
  },
  {
    key: 'verify',
    header: 'Proof',
    className: 'order-7 col-span-6 md:w-40 md:min-w-40',
    render: (game) => (
      <div className="flex flex-col gap-2 text-xs md:items-start">
        <ProtocolBadge protocol={game.protocol} />
        <Link
          to={`/verify/${game.code}`}
          title={`Verify game ${game.code}`}
          className="inline-flex w-full items-center justify-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-semibold text-indigo-600 ring-1 ring-indigo-200 hover:bg-indigo-50 md:-ml-2.5 md:w-auto md:py-0.5 md:ring-0"
        >
          <ShieldCheck className="h-4 w-4" aria-hidden="true" />
          {/* The code is long: on a wide table the link says Verify and the code is for screen readers. */}
          Verify <span className="font-mono md:sr-only">{game.code}</span>
        </Link>
      </div>
    ),
  },
];

/**
 * Games voided after a draw (their held pool returned to the player): when, whose, the range, bet
 * and pool, how far the draw got, why, by whom and when, and its proof: the protocol (LOT-DRAW-1
 * labelled) and the way to the game's public proof.
 */
export function VoidedGamesTable({
  games,
  hide = [],
}: {
  games: readonly GameSummary[];
  hide?: readonly VoidedColumn[];
}) {
  const columns = COLUMNS.filter((column) => !(hide as readonly string[]).includes(column.key));
  return (
    <DataTable
      rows={games}
      columns={columns}
      rowKey={(game) => game.id}
      rowTestId="voided-row"
      rowData={(game) => ({ 'data-code': game.code })}
      rowClassName="grid grid-cols-6 gap-x-3 gap-y-2 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[760px]"
      cellClassName="md:px-2.5 md:py-3"
      headerClassName="px-2.5 py-3 align-bottom leading-tight"
      labels="stacked"
    />
  );
}
