import { useState } from 'react';
import { Card, EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { count } from '../../../lib/format.ts';
import { useFilterPage } from '../../../lib/use-filter-page.ts';
import {
  NO_SHIFTS_FILTER,
  SHIFTS_PAGE_SIZE,
  shiftsApiQuery,
  useShifts,
  type ShiftsFilter,
  type ShiftStatus,
} from '../api/get-shifts.ts';
import { useShops } from '../api/get-shops.ts';
import { ShiftsTable } from './shifts-table.tsx';

const STATUS_OPTIONS: { value: ShiftStatus; label: string }[] = [
  { value: 'all', label: 'All shifts' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
];

/**
 * docs/product/screens.md#shifts (/admin/shifts, /superagent/shifts, /agent/shifts): the shifts of
 * the shops in the caller's scope (the server decides which), newest first, filtered by status, shop
 * and days, paged, exported as CSV or Excel; a row opens the shift's report.
 */
export function ShiftsListScreen({ initial = NO_SHIFTS_FILTER }: { initial?: ShiftsFilter }) {
  const [filter, setFilter] = useState<ShiftsFilter>(initial);
  const [page, setPage] = useFilterPage(JSON.stringify(filter));
  const shifts = useShifts(filter, page);
  const shops = useShops();
  const total = shifts.data?.total ?? 0;
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_SHIFTS_FILTER);
  const set = (change: Partial<ShiftsFilter>) => setFilter((previous) => ({ ...previous, ...change }));

  return (
    <Card title="Shifts of your shops">
      <div className="mb-4 grid grid-cols-2 items-end gap-3 lg:grid-cols-5">
        <SelectField
          label="Status"
          value={filter.status}
          onChange={(e) => set({ status: e.target.value as ShiftStatus })}
        >
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Shop"
          value={filter.userId === null ? '' : String(filter.userId)}
          onChange={(e) => set({ userId: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">All shops</option>
          {shops.data?.map((shop) => (
            <option key={shop.id} value={String(shop.id)}>
              {shop.name} ({shop.username})
            </option>
          ))}
        </SelectField>
        <TextField
          label="From"
          type="date"
          value={filter.fromDay}
          max={filter.toDay || undefined}
          onChange={(e) => set({ fromDay: e.target.value })}
        />
        <TextField
          label="To"
          type="date"
          value={filter.toDay}
          min={filter.fromDay || undefined}
          onChange={(e) => set({ toDay: e.target.value })}
        />
        <div className="col-span-2 lg:col-span-1">
          <Button
            variant="secondary"
            className="w-full"
            disabled={!filtered}
            onClick={() => setFilter(NO_SHIFTS_FILTER)}
          >
            Reset filters
          </Button>
        </div>
      </div>
      <p className="mb-4 text-xs text-slate-500">
        The days are shifts opened on them, in your time zone. A shift open over midnight is still open after the UTC
        day it was opened on.
      </p>
      {shifts.isPending ? (
        <Spinner label="Loading shifts..." />
      ) : shifts.isError ? (
        <ErrorPanel message="Failed to fetch the shifts" onRetry={() => void shifts.refetch()} />
      ) : (
        <div
          className={`space-y-4 transition-opacity ${shifts.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={shifts.isFetching}
        >
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <p data-testid="shifts-total" className="text-sm text-slate-600">
              {count(total)} {total === 1 ? 'shift' : 'shifts'}
            </p>
            <ExportButtons path="/api/shifts/export" query={shiftsApiQuery(filter)} />
          </div>
          {total === 0 ? (
            <EmptyState message={filtered ? 'No shifts match these filters.' : 'No shifts yet.'} />
          ) : (
            <>
              <ShiftsTable shifts={shifts.data.items} />
              <Pagination page={page} pageSize={SHIFTS_PAGE_SIZE} total={total} onPage={setPage} />
            </>
          )}
        </div>
      )}
    </Card>
  );
}
