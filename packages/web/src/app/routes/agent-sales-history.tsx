import { useState } from 'react';
import { dayRange } from '@lot/domain/dates';
import { PageHeading } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useAgentSales } from '../../features/sales-history/api/get-agent-sales.ts';
import { useUsersByRole } from '../../features/sales-history/api/get-users-by-role.ts';
import { FiltersCard } from '../../features/sales-history/components/filters-card.tsx';
import { DateRangeFilter, type DateRange } from '../../features/sales-history/components/date-range-filter.tsx';
import { PickerSelect } from '../../features/sales-history/components/picker-select.tsx';
import { HistoryCard } from '../../features/sales-history/components/history-card.tsx';
import { SalesResults } from '../../features/sales-history/components/sales-results.tsx';
import { SalesTotals } from '../../features/sales-history/components/sales-totals.tsx';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';

const NO_DATES: DateRange = { startDate: '', endDate: '' };
/** An agent's users all share one parent, so the Parent column says nothing here (docs/product/screens.md#agent-sales-history). */
const HIDDEN = ['parent'] as const;

/**
 * docs/product/screens.md#agent-sales-history (/agent/sales-history): the agent's users' games, narrowed to one user and by
 * date, with totals over the filtered set and the paginated table without the Parent column.
 */
export function AgentSalesHistoryRoute() {
  const me = useCurrentUser();
  const [userId, setUserId] = useState<number | null>(null);
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  const users = useUsersByRole('user');

  const { from, to } = dayRange(dates.startDate, dates.endDate);
  const [page, setPage] = useFilterPage(JSON.stringify([userId, from, to]));
  const sales = useAgentSales({ agentId: me.id, userId, from, to, page });
  const filtered = userId !== null || Boolean(from || to);

  return (
    <div className="space-y-6">
      <PageHeading title="Sales History">Every game your users played, narrowed by user and date.</PageHeading>

      <FiltersCard
        canReset={filtered}
        onReset={() => {
          setUserId(null);
          setDates(NO_DATES);
        }}
        pickerFailed={users.isError}
        gridClassName="lg:grid-cols-3"
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <PickerSelect
            label="User"
            allLabel="All Users"
            users={users.data ?? []}
            value={userId}
            onChange={setUserId}
          />
        </div>
        <DateRangeFilter value={dates} onChange={setDates} />
      </FiltersCard>

      <HistoryCard
        title="Game History"
        inProgress
        from={from}
        to={to}
        hide={HIDDEN}
        pickerFiltered={userId !== null}
        totals={
          <SalesTotals
            view="played"
            totalGames={sales.data?.total}
            totalAmount={sales.data?.totalCommission}
            failed={sales.isError}
          />
        }
        exportButtons={<ExportButtons path={`/api/sales-history/agent/${me.id}/export`} query={{ userId, from, to }} />}
      >
        <SalesResults query={sales} page={page} onPage={setPage} filtered={filtered} hide={HIDDEN} />
      </HistoryCard>
    </div>
  );
}
