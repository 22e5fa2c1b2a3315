import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Card, EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { useFilterPage } from '../../../lib/use-filter-page.ts';
import { SALES_PAGE_SIZE } from '../api/sales-page.ts';
import { useVoidedGames } from '../api/get-voided-games.ts';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { GamesInProgress } from './games-in-progress.tsx';
import { SalesTotals } from './sales-totals.tsx';
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
 * A history screen's list card and what stands above it: on the Played tab the screen's own totals,
 * exports and table; on the Voided games tab the voided games' totals, exports and table, paged by
 * the server with the screen's date filter; and — for the upline — on the Games in progress tab the
 * games their shops have open or frozen, to finish or void (docs/product/screens.md#voided-games).
 */
export function HistoryCard({
  title,
  from,
  to,
  hide,
  pickerFiltered = false,
  inProgress = false,
  totals,
  exportButtons,
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
  /** The Played tab's totals and exports: the played games', shown only with them. */
  totals?: ReactNode;
  exportButtons?: ReactNode;
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
  const card = (body: ReactNode) => (
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
      {body}
    </Card>
  );
  if (view === 'voided')
    return <VoidedGames from={from} to={to} hide={hide} pickerFiltered={pickerFiltered} card={card} />;
  if (view === 'in-progress')
    return card(
      <GamesInProgress showParent={!hide?.includes('parent')} filtered={pickerFiltered || Boolean(from || to)} />,
    );
  return (
    <>
      {totals}
      {exportButtons}
      {card(children)}
    </>
  );
}

/** The Voided games tab: its totals, its exports (GET /api/games/export?status=voided) and its table. */
function VoidedGames({
  from,
  to,
  hide,
  pickerFiltered,
  card,
}: {
  from?: string;
  to?: string;
  hide?: readonly VoidedColumn[];
  pickerFiltered: boolean;
  card: (body: ReactNode) => ReactNode;
}) {
  const [page, setPage] = useFilterPage(JSON.stringify([from, to]));
  const query = useVoidedGames({ from, to, page });
  const note = pickerFiltered && (
    <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200">
      Voided games are narrowed by date only: every voided game you can see is listed.
    </p>
  );
  return (
    <>
      <SalesTotals
        view="voided"
        totalGames={query.data?.total}
        totalAmount={query.data?.totalPool}
        failed={query.isError}
      />
      <ExportButtons path="/api/games/export" query={{ status: 'voided', from, to }} />
      {card(
        <VoidedList
          query={query}
          note={note}
          page={page}
          onPage={setPage}
          hide={hide}
          filtered={Boolean(from || to)}
        />,
      )}
    </>
  );
}

function VoidedList({
  query,
  note,
  page,
  onPage,
  hide,
  filtered,
}: {
  query: ReturnType<typeof useVoidedGames>;
  note: ReactNode;
  page: number;
  onPage: (page: number) => void;
  hide?: readonly VoidedColumn[];
  filtered: boolean;
}) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorPanel message="Failed to fetch voided games" onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (total === 0)
    return (
      <>
        {note}
        <EmptyState message={filtered ? 'No voided games in these dates.' : 'No voided games.'} />
      </>
    );
  return (
    <div
      className={`space-y-4 transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`}
      aria-busy={query.isFetching}
    >
      {note}
      <VoidedGamesTable games={items} hide={hide} />
      <Pagination page={page} pageSize={SALES_PAGE_SIZE} total={total} onPage={onPage} />
    </div>
  );
}
