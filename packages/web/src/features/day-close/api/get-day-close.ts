import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DayClose } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';

/** A day close asked for: the local day (YYYY-MM-DD) and the zone it is a day of. */
export type DayCloseQuery = { date: string; timeZone: string };

/** GET /api/reports/day-close (docs/product/money.md#day-close): the signed-in shop's own day. */
export function getDayClose({ date, timeZone }: DayCloseQuery): Promise<DayClose> {
  return api<DayClose>('/api/reports/day-close', { query: { date, tz: timeZone } });
}

export const dayCloseQuery = (query: DayCloseQuery) =>
  queryOptions({
    queryKey: ['day-close', query.date, query.timeZone],
    queryFn: () => getDayClose(query),
    // Today's figures change with every game and transfer: opening the screen asks again.
    staleTime: 0,
  });

export function useDayClose(query: DayCloseQuery) {
  return useQuery(dayCloseQuery(query));
}
