import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, Play, ShieldCheck } from 'lucide-react';
import { gameTitle } from '@lot/domain/game';
import type { GameSummary } from '@lot/domain/schemas/games';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';
import { useGamesInProgress, type InProgressStatus } from '../api/get-games-in-progress.ts';
import { gamesListQueryKey } from '../api/get-voided-games.ts';
import { SALES_PAGE_SIZE, salesHistoryQueryKey } from '../api/sales-page.ts';
import { FinishGameDialog } from './finish-game-dialog.tsx';
import { GameAt } from './game-at.tsx';
import { ProtocolBadge } from './protocol-badge.tsx';
import { VoidGameDialog } from './void-game-dialog.tsx';

type Actions = { onFinish: (game: GameSummary) => void; onVoid: (game: GameSummary) => void };

function columns(status: InProgressStatus, showParent: boolean, actions: Actions): Column<GameSummary>[] {
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

function InProgressList({
  status,
  showParent,
  actions,
}: {
  status: InProgressStatus;
  showParent: boolean;
  actions: Actions;
}) {
  const [page, setPage] = useState(1);
  const query = useGamesInProgress(status, page);
  const title = status === 'drawing' ? 'Frozen: waiting to be finished' : 'Open: taking entries';
  const titleId = `in-progress-${status}`;
  return (
    <section aria-labelledby={titleId} data-testid={`in-progress-${status}`} className="space-y-3">
      <div>
        <h3 id={titleId} className="text-sm font-semibold text-slate-900">
          {title}
          {query.data && <span className="font-normal text-slate-500"> ({query.data.total})</span>}
        </h3>
        <p className="mt-0.5 text-xs text-slate-500">
          {status === 'drawing'
            ? 'The shop started the draw: the entries and the pool are fixed, and the outcome with them. Finish draws every remaining position and pays the winners; Void stops the game, pays nothing and returns the pool to the shop.'
            : 'The shop is still taking entries: only the shop can start the draw.'}
        </p>
      </div>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <ErrorPanel message="Failed to fetch the games in progress" onRetry={() => void query.refetch()} />
      ) : query.data.total === 0 ? (
        <EmptyState message={status === 'drawing' ? 'No frozen game is waiting.' : 'No open games.'} />
      ) : (
        <div
          className={`space-y-4 transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={query.isFetching}
        >
          <DataTable
            rows={query.data.items}
            columns={columns(status, showParent, actions)}
            rowKey={(game) => game.id}
            rowTestId="in-progress-row"
            rowData={(game) => ({ 'data-code': game.code, 'data-status': game.status })}
            rowClassName="grid grid-cols-6 gap-x-3 gap-y-2 bg-white md:hover:bg-slate-50"
            minWidth="md:min-w-[720px]"
            cellClassName="md:px-2.5 md:py-3"
            headerClassName="px-2.5 py-3 align-bottom leading-tight"
          />
          <Pagination page={page} pageSize={SALES_PAGE_SIZE} total={query.data.total} onPage={setPage} />
        </div>
      )}
    </section>
  );
}

/**
 * The Games in progress tab of the upline's history screens: the frozen games of their shops, which
 * they may finish (draw every remaining position) or void (with a reason), and the open ones, which
 * only their shop can start. Not narrowed by the screen's filters: a game frozen last week still
 * waits.
 */
export function GamesInProgress({ showParent = true, filtered = false }: { showParent?: boolean; filtered?: boolean }) {
  const queryClient = useQueryClient();
  const [finishing, setFinishing] = useState<GameSummary | null>(null);
  const [voiding, setVoiding] = useState<GameSummary | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const changed = () => {
    // The lists of games, the histories and the dashboards' figures ('activity', the reports' key).
    for (const queryKey of [gamesListQueryKey, salesHistoryQueryKey, ['activity']]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  const actions: Actions = {
    onFinish: (game) => {
      setNotice(null);
      setFinishing(game);
    },
    onVoid: (game) => {
      setNotice(null);
      setVoiding(game);
    },
  };
  return (
    <div className="space-y-6">
      {filtered && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
          Games in progress are not narrowed by the filters: every game in progress you can see is listed.
        </p>
      )}
      {notice && (
        <p
          role="status"
          className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200"
        >
          {notice}
        </p>
      )}
      <InProgressList status="drawing" showParent={showParent} actions={actions} />
      <InProgressList status="open" showParent={showParent} actions={actions} />
      <FinishGameDialog game={finishing} onClose={() => setFinishing(null)} onChanged={changed} />
      <VoidGameDialog
        game={voiding}
        onClose={() => setVoiding(null)}
        onVoided={(game) => {
          setVoiding(null);
          setNotice(
            `${game.user.fullName}'s ${gameTitle(game.number)} (${game.code}) was voided: the pool of ${money(game.pool)} went back to the shop.`,
          );
          changed();
        }}
      />
    </div>
  );
}
