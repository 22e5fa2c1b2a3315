import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Card, EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { useFilterPage } from '../../../lib/use-filter-page.ts';
import { SALES_PAGE_SIZE } from '../api/sales-page.ts';
import { useVoidedGames } from '../api/get-voided-games.ts';
import { GamesInProgress } from './games-in-progress.tsx';
import { VoidedGamesTable, type VoidedColumn } from './voided-games-table.tsx';

type View = 'played' | 'voided' | 'in-progress';

const VIEWS: readonly View[] = ['played', 'voided', 'in-progress'];

/** The view is in the address (?view=voided, ?view=in-progress), so a dashboard's card can open it. */
function useView(): [View, (view: View) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('view');
  const view: View = VIEWS.find((v) => v === asked) ?? 'played';
  return [
    view,
    (next) =>
      setParams(
        (current) => {
          const changed = new URLSearchParams(current);
          if (next === 'played') changed.delete('view');
          else changed.set('view', next);
          return changed;
        },
        { replace: true },
      ),
  ];
}

/**
 * A history screen's list card: the games played (the screen's own table), on the Voided games tab
 * the games voided after a draw, paged by the server with the screen's date filter, and — for the
 * upline — on the Games in progress tab the games their shops have open or frozen, to finish or void.
 */
export function HistoryCard({
  title,
  from,
  to,
  hide,
  pickerFiltered = false,
  inProgress = false,
  children,
}: {
  title: string;
  from?: string;
  to?: string;
  /** Columns of the voided table this screen does not show (the user's has no User or Parent). */
  hide?: readonly VoidedColumn[];
  /** A person is chosen in the filters: the voided list does not narrow by person, so it says so. */
  pickerFiltered?: boolean;
  /** The upline's screens: the Games in progress tab (the user's own history has none). */
  inProgress?: boolean;
  children: ReactNode;
}) {
  const [asked, setView] = useView();
  const view = asked === 'in-progress' && !inProgress ? 'played' : asked;
  const tab = (value: View, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={view === value}
      onClick={() => setView(value)}
      className={`rounded-md px-3 py-1.5 text-sm font-semibold transition ${
        view === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
      }`}
    >
      {label}
    </button>
  );
  return (
    <Card
      title={title}
      actions={
        <div role="tablist" aria-label="Which games" className="flex rounded-lg bg-slate-100 p-1">
          {tab('played', 'Played')}
          {tab('voided', 'Voided games')}
          {inProgress && tab('in-progress', 'Games in progress')}
        </div>
      }
    >
      {view === 'played' ? (
        children
      ) : view === 'voided' ? (
        <VoidedGames from={from} to={to} hide={hide} pickerFiltered={pickerFiltered} />
      ) : (
        <GamesInProgress showParent={!hide?.includes('parent')} filtered={pickerFiltered || Boolean(from || to)} />
      )}
    </Card>
  );
}

function VoidedGames({
  from,
  to,
  hide,
  pickerFiltered,
}: {
  from?: string;
  to?: string;
  hide?: readonly VoidedColumn[];
  pickerFiltered: boolean;
}) {
  const [page, setPage] = useFilterPage(JSON.stringify([from, to]));
  const query = useVoidedGames({ from, to, page });
  const note = pickerFiltered && (
    <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
      Voided games are narrowed by date only: every voided game you can see is listed.
    </p>
  );
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorPanel message="Failed to fetch voided games" onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (total === 0)
    return (
      <>
        {note}
        <EmptyState message={from || to ? 'No voided games in these dates.' : 'No voided games.'} />
      </>
    );
  return (
    <div
      className={`space-y-4 transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`}
      aria-busy={query.isFetching}
    >
      {note}
      <VoidedGamesTable games={items} hide={hide} />
      <Pagination page={page} pageSize={SALES_PAGE_SIZE} total={total} onPage={setPage} />
    </div>
  );
}
