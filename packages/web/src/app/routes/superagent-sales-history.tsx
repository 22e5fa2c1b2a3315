import { useState } from 'react';
import { dayRange } from '@lot/domain/dates';
import { SelectField } from '../../components/ui/field.tsx';
import { PageHeading } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useUsersByRole } from '../../features/sales-history/api/get-users-by-role.ts';
import { useSuperagentSales } from '../../features/sales-history/api/get-superagent-sales.ts';
import { FiltersCard } from '../../features/sales-history/components/filters-card.tsx';
import { DateRangeFilter, type DateRange } from '../../features/sales-history/components/date-range-filter.tsx';
import { PickerSelect } from '../../features/sales-history/components/picker-select.tsx';
import { HistoryCard } from '../../features/sales-history/components/history-card.tsx';
import { SalesResults } from '../../features/sales-history/components/sales-results.tsx';
import { SalesTotals } from '../../features/sales-history/components/sales-totals.tsx';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';

type FilterType = 'all' | 'agent' | 'user';
type Filter = { type: FilterType; id: number | null };

const NO_FILTER: Filter = { type: 'all', id: null };
const NO_DATES: DateRange = { startDate: '', endDate: '' };

const FILTER_TYPES: { value: FilterType; label: string }[] = [
  { value: 'all', label: 'All Sales' },
  { value: 'agent', label: 'By Agent' },
  { value: 'user', label: 'By User' },
];

/**
 * docs/product/screens.md#superagent-sales-history (/superagent/sales-history): the super agent's games, narrowed by one of its
 * agents or one of its users (the server scopes both picker lists) and by date, with totals over
 * the filtered set and the paginated table.
 */
export function SuperagentSalesHistoryRoute() {
  const me = useCurrentUser();
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [dates, setDates] = useState<DateRange>(NO_DATES);
  const agents = useUsersByRole('agent', filter.type === 'agent');
  const users = useUsersByRole('user', filter.type === 'user');
  const picker = filter.type === 'agent' ? agents : users;

  const agentId = filter.type === 'agent' ? filter.id : null;
  const userId = filter.type === 'user' ? filter.id : null;
  const { from, to } = dayRange(dates.startDate, dates.endDate);
  const [page, setPage] = useFilterPage(JSON.stringify([agentId, userId, from, to]));
  const sales = useSuperagentSales({ superagentId: me.id, agentId, userId, from, to, page });
  const filtered = filter.id !== null || Boolean(from || to);

  return (
    <div className="space-y-6">
      <PageHeading title="Sales History">Every game played under you, narrowed by agent, user and date.</PageHeading>

      <FiltersCard
        canReset={filtered || filter.type !== 'all'}
        onReset={() => {
          setFilter(NO_FILTER);
          setDates(NO_DATES);
        }}
        pickerFailed={filter.type !== 'all' && picker.isError}
        gridClassName="lg:grid-cols-4"
      >
        <SelectField
          label="Filter Type"
          value={filter.type}
          onChange={(event) => setFilter({ type: event.target.value as FilterType, id: null })}
        >
          {FILTER_TYPES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
        {filter.type === 'all' ? (
          <PickerSelect
            label="Agent or User"
            allLabel="All Sales"
            users={[]}
            value={null}
            onChange={() => {}}
            disabled
          />
        ) : (
          <PickerSelect
            label={filter.type === 'agent' ? 'Agent' : 'User'}
            allLabel={filter.type === 'agent' ? 'All Agents' : 'All Users'}
            users={picker.data ?? []}
            value={filter.id}
            onChange={(id) => setFilter({ ...filter, id })}
          />
        )}
        <DateRangeFilter value={dates} onChange={setDates} />
      </FiltersCard>

      <HistoryCard
        title="Game History"
        inProgress
        from={from}
        to={to}
        pickerFiltered={filter.id !== null}
        totals={
          <SalesTotals
            view="played"
            totalGames={sales.data?.total}
            totalAmount={sales.data?.totalCommission}
            failed={sales.isError}
          />
        }
        exportButtons={
          <ExportButtons path={`/api/sales-history/superagent/${me.id}/export`} query={{ agentId, userId, from, to }} />
        }
      >
        <SalesResults query={sales} page={page} onPage={setPage} filtered={filtered} />
      </HistoryCard>
    </div>
  );
}
