import { useState } from 'react';
import { Dices, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { dayRange } from '@lot/domain/dates';
import { PageHeading } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useUserSales } from '../../features/sales-history/api/get-user-sales.ts';
import { FiltersCard } from '../../features/sales-history/components/filters-card.tsx';
import { DateRangeFilter, type DateRange } from '../../features/sales-history/components/date-range-filter.tsx';
import { HistoryCard } from '../../features/sales-history/components/history-card.tsx';
import { SalesResults } from '../../features/sales-history/components/sales-results.tsx';
import { SalesTotals } from '../../features/sales-history/components/sales-totals.tsx';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';

const NO_DATES: DateRange = { startDate: '', endDate: '' };
/** Every game here is the user's own (docs/product/screens.md#game-history): no User or Parent column. */
const HIDDEN = ['user', 'parent'] as const;

const VIEW_WINNERS = {
  header: 'Winners detail',
  render: (sale: { id: number }) => (
    <Link
      to={`/game-winners/${sale.id}`}
      className="inline-flex w-full items-center justify-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-semibold text-indigo-600 ring-1 ring-indigo-200 hover:bg-indigo-50 md:w-auto md:ring-0"
    >
      <Trophy className="h-4 w-4" aria-hidden="true" />
      View Winners
    </Link>
  ),
};

const PLAY_A_GAME = (
  <Link
    to="/user/number-game"
    className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700"
  >
    <Dices className="h-4 w-4" aria-hidden="true" />
    Play a Game
  </Link>
);

/**
 * docs/product/screens.md#game-history (/sales-history): the user's own games by date, with totals over the filtered set,
 * the paginated table and a View Winners link per game.
 */
export function UserSalesHistoryRoute() {
  const me = useCurrentUser();
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  const { from, to } = dayRange(dates.startDate, dates.endDate);
  const [page, setPage] = useFilterPage(JSON.stringify([from, to]));
  const sales = useUserSales({ userId: me.id, from, to, page });
  const filtered = Boolean(from || to);

  return (
    <div className="space-y-6">
      <PageHeading title="Game History">Every game you ran, with its prizes, commission and winners.</PageHeading>

      <FiltersCard canReset={filtered} onReset={() => setDates(NO_DATES)} gridClassName="lg:max-w-2xl">
        <DateRangeFilter value={dates} onChange={setDates} />
      </FiltersCard>

      <HistoryCard
        title="Games"
        from={from}
        to={to}
        hide={HIDDEN}
        totals={
          <SalesTotals
            view="played"
            totalGames={sales.data?.total}
            totalAmount={sales.data?.totalCommission}
            failed={sales.isError}
          />
        }
        exportButtons={<ExportButtons path={`/api/sales-history/user/${me.id}/export`} query={{ from, to }} />}
      >
        <SalesResults
          query={sales}
          page={page}
          onPage={setPage}
          filtered={filtered}
          hide={HIDDEN}
          action={VIEW_WINNERS}
          emptyAction={PLAY_A_GAME}
        />
      </HistoryCard>
    </div>
  );
}
