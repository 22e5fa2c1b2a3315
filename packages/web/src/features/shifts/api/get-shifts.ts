import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dayRange } from '@lot/domain/dates';
import type { Shift, ShiftList } from '@lot/domain/schemas/shifts';
import { apiPage } from '../../../lib/api-client.ts';
import { shiftsQueryKey } from './get-current-shift.ts';

export const SHIFTS_PAGE_SIZE = 10;

export type ShiftStatus = 'all' | 'open' | 'closed';

/** The Shifts list's filters: status, one shop, local days (both included). */
export type ShiftsFilter = { status: ShiftStatus; userId: number | null; fromDay: string; toDay: string };

export const NO_SHIFTS_FILTER: ShiftsFilter = { status: 'all', userId: null, fromDay: '', toDay: '' };

/** The filter a list address names (`?status=open` or `closed`, docs/product/screens.md#shifts). */
export function shiftsFilterAt(search: URLSearchParams): ShiftsFilter {
  const status = search.get('status');
  return { ...NO_SHIFTS_FILTER, status: status === 'open' || status === 'closed' ? status : 'all' };
}

/** The API's query for a filter (the list's and the export's): the days as instants of the browser's zone. */
export function shiftsApiQuery({ status, userId, fromDay, toDay }: ShiftsFilter) {
  const { from, to } = dayRange(fromDay || undefined, toDay || undefined);
  return { status, userId: userId ?? undefined, from, to };
}

/** GET /api/shifts: the caller's shifts (a shop's own, the upline's shops'), newest first. */
export const shiftsQuery = (filter: ShiftsFilter, page: number, pageSize = SHIFTS_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...shiftsQueryKey, 'list', filter, page, pageSize],
    queryFn: async (): Promise<ShiftList> => {
      const query = { ...shiftsApiQuery(filter), page, pageSize };
      const { items, total } = await apiPage<Shift>('/api/shifts', { query });
      return { items, total, page, pageSize };
    },
    placeholderData: keepPreviousData,
  });

export function useShifts(filter: ShiftsFilter, page: number, pageSize = SHIFTS_PAGE_SIZE) {
  return useQuery(shiftsQuery(filter, page, pageSize));
}
