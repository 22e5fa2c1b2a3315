import { useState } from 'react';
import { dayRange } from '@lot/domain/dates';
import { PageHeading } from '../../components/ui/panels.tsx';
import { useAdminSales, type SalesOwner } from '../../features/sales-history/api/get-admin-sales.ts';
import { FiltersCard } from '../../features/sales-history/components/filters-card.tsx';
import { DateRangeFilter, type DateRange } from '../../features/sales-history/components/date-range-filter.tsx';
import { PickerSelect } from '../../features/sales-history/components/picker-select.tsx';
import { HistoryCard } from '../../features/sales-history/components/history-card.tsx';
import { SalesResults } from '../../features/sales-history/components/sales-results.tsx';
import { SalesTotals } from '../../features/sales-history/components/sales-totals.tsx';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { useHierarchyOptions } from '../../features/sales-history/hooks/use-hierarchy-options.ts';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';

type Scope = { superagentId: number | null; agentId: number | null; userId: number | null };

const NO_SCOPE: Scope = { superagentId: null, agentId: null, userId: null };
const NO_DATES: DateRange = { startDate: '', endDate: '' };

/** The narrowest level chosen decides whose games: a user's, else an agent's, else a super agent's. */
function ownerOf({ superagentId, agentId, userId }: Scope): SalesOwner {
  if (userId !== null) return { role: 'user', userId };
  if (agentId !== null) return { role: 'agent', userId: agentId };
  if (superagentId !== null) return { role: 'superagent', userId: superagentId };
  return null;
}

/**
 * docs/product/screens.md#admin-sales-history (/admin/sales-history): cascading Super Agent → Agent → User filters, a date
 * range, totals over the filtered set and the paginated table.
 */
export function AdminSalesHistoryRoute() {
  const [scope, setScope] = useState<Scope>(NO_SCOPE);
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  const options = useHierarchyOptions(scope.superagentId, scope.agentId);

  const owner = ownerOf(scope);
  const { from, to } = dayRange(dates.startDate, dates.endDate);
  const [page, setPage] = useFilterPage(JSON.stringify([owner, from, to]));
  const sales = useAdminSales({ owner, from, to, page });
  const filtered = owner !== null || Boolean(from || to);

  return (
    <div className="space-y-6">
      <PageHeading title="Sales History">Every game played, narrowed by super agent, agent, user and date.</PageHeading>

      <FiltersCard
        canReset={filtered}
        onReset={() => {
          setScope(NO_SCOPE);
          setDates(NO_DATES);
        }}
        pickerFailed={options.isError}
        gridClassName="lg:grid-cols-5"
      >
        {/* Choosing a level clears the ones below it: they may not belong to the new choice. */}
        <PickerSelect
          label="Super Agent"
          allLabel="All Super Agents"
          users={options.superagents}
          value={scope.superagentId}
          onChange={(superagentId) => setScope({ superagentId, agentId: null, userId: null })}
        />
        <PickerSelect
          label="Agent"
          allLabel="All Agents"
          users={options.agents}
          value={scope.agentId}
          onChange={(agentId) => setScope({ ...scope, agentId, userId: null })}
        />
        <PickerSelect
          label="User"
          allLabel="All Users"
          users={options.users}
          value={scope.userId}
          onChange={(userId) => setScope({ ...scope, userId })}
        />
        <DateRangeFilter value={dates} onChange={setDates} />
      </FiltersCard>

      <HistoryCard
        title="Game History"
        inProgress
        from={from}
        to={to}
        pickerFiltered={owner !== null}
        totals={
          <SalesTotals
            view="played"
            totalGames={sales.data?.total}
            totalAmount={sales.data?.totalCommission}
            failed={sales.isError}
          />
        }
        exportButtons={
          <ExportButtons
            path="/api/sales-history/filter/export"
            query={{ role: owner?.role, userId: owner?.userId, from, to }}
          />
        }
      >
        <SalesResults query={sales} page={page} onPage={setPage} filtered={filtered} />
      </HistoryCard>
    </div>
  );
}
