import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { gameTitle } from '@lot/domain/game';
import type { GameSummary } from '@lot/domain/schemas/games';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';
import { useGamesInProgress, type InProgressStatus } from '../api/get-games-in-progress.ts';
import { gamesListQueryKey } from '../api/get-voided-games.ts';
import { SALES_PAGE_SIZE, salesHistoryQueryKey } from '../api/sales-page.ts';
import { FinishGameDialog } from './finish-game-dialog.tsx';
import { inProgressColumns, type InProgressActions } from './in-progress-columns.tsx';
import { VoidGameDialog } from './void-game-dialog.tsx';

function InProgressList({
  status,
  showParent,
  actions,
}: {
  status: InProgressStatus;
  showParent: boolean;
  actions: InProgressActions;
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
            columns={inProgressColumns(status, showParent, actions)}
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
  const actions: InProgressActions = {
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
