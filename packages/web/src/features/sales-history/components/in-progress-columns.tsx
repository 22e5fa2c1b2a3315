import { Link } from 'react-router';
import { Ban, Play, ShieldCheck } from 'lucide-react';
import type { GameSummary } from '@lot/domain/schemas/games';
import { Button } from '../../../components/ui/button.tsx';
import type { Column } from '../../../components/ui/data-table.tsx';
import { money } from '../../../lib/format.ts';
import type { InProgressStatus } from '../api/get-games-in-progress.ts';
import { GameAt } from './game-at.tsx';
import { ProtocolBadge } from './protocol-badge.tsx';

export type InProgressActions = { onFinish: (game: GameSummary) => void; onVoid: (game: GameSummary) => void };

/**
 * The Games in progress table's columns: the shop (and its parent where shown), the game, and what
 * the upline may do with it (docs/product/screens.md#voided-games).
 */
export function inProgressColumns(
  status: InProgressStatus,
  showParent: boolean,
  actions: InProgressActions,
): Column<GameSummary>[] {
  return [
    {
      key: 'user',
      header: 'Shop',
      className: 'order-1 col-span-3 min-w-0 md:min-w-36',
      render: (game) => (
        <>
          <span title={game.user.username} className="block truncate font-medium text-slate-900">
            {game.user.fullName}
          </span>
          {showParent && (
            <span className="block truncate text-xs text-slate-500">Parent: {game.user.parent?.fullName ?? '—'}</span>
          )}
        </>
      ),
    },
    {
      key: 'date',
      header: 'Opened',
      className:
        'order-2 col-span-3 text-right text-xs whitespace-nowrap text-slate-500 md:text-left md:text-sm md:text-slate-600',
      render: (game) => <GameAt number={game.number} at={game.openedAt} />,
    },
    {
      key: 'protocol',
      header: 'Protocol',
      className: 'order-3 col-span-6 md:min-w-44',
      render: (game) => <ProtocolBadge protocol={game.protocol} />,
    },
    {
      key: 'pool',
      header: status === 'drawing' ? 'Pool held' : 'Pool',
      label: status === 'drawing' ? 'Pool held' : 'Pool',
      align: 'right',
      className: 'order-4 col-span-3 tabular-nums md:text-right md:whitespace-nowrap',
      render: (game) => (
        <>
          <span className="font-semibold text-slate-900">{money(game.pool)}</span>
          <span className="block text-xs text-slate-500">
            {game.entriesCount} {game.entriesCount === 1 ? 'entry' : 'entries'} × {money(game.betAmount)}
          </span>
        </>
      ),
    },
    {
      key: 'drawn',
      header: 'Drawn',
      label: 'Drawn',
      align: 'right',
      className: 'order-4 col-span-3 text-right tabular-nums md:whitespace-nowrap',
      render: (game) => (
        <span data-testid="in-progress-drawn">
          {game.drawsCount} of {game.prizesCount}
        </span>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      hiddenHeader: true,
      align: 'right',
      className: 'order-5 col-span-6 md:text-right md:whitespace-nowrap',
      render: (game) => (
        <div className="grid grid-cols-3 gap-2 md:inline-flex md:items-center md:justify-end">
          {status === 'drawing' && (
            <>
              <Button
                className="px-3 py-1.5"
                onClick={() => actions.onFinish(game)}
                aria-label={`Finish ${game.user.fullName}'s game ${game.code}`}
              >
                <Play className="h-4 w-4 shrink-0" aria-hidden="true" /> Finish
              </Button>
              <Button
                variant="secondary"
                className="px-3 py-1.5 text-rose-700"
                onClick={() => actions.onVoid(game)}
                aria-label={`Void ${game.user.fullName}'s game ${game.code}`}
              >
                <Ban className="h-4 w-4 shrink-0" aria-hidden="true" /> Void
              </Button>
            </>
          )}
          <Link
            to={`/verify/${game.code}`}
            title={`Verify game ${game.code}`}
            className={`inline-flex items-center justify-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-semibold text-indigo-600 ring-1 ring-indigo-200 hover:bg-indigo-50 md:ring-0 ${
              status === 'drawing' ? '' : 'col-span-3'
            }`}
          >
            <ShieldCheck className="h-4 w-4" aria-hidden="true" />
            Verify <span className="sr-only">{game.code}</span>
          </Link>
        </div>
      ),
    },
  ];
}
