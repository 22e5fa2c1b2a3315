import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DayClose } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';
import { browserTimeZone, localDay } from '../../../lib/periods.ts';
import { SCREEN_FRESH_MS } from '../../../lib/query-client.ts';

/** A day close asked for: the local day (YYYY-MM-DD) and the zone it is a day of. */
export type DayCloseQuery = { date: string; timeZone: string };

/**
 * The day a screen at this address closes: ?date= as written, else today. A ?date= that is not a
 * day, or is after today, is asked as it is: the server refuses it and the screen shows why, rather
 * than quietly showing another day.
 */
export function dayCloseQueryAt(params: URLSearchParams): DayCloseQuery {
  return { date: params.get('date') || localDay(), timeZone: browserTimeZone() };
}

/** GET /api/reports/day-close (docs/product/money.md#day-close): the signed-in shop's own day. */
export function getDayClose({ date, timeZone }: DayCloseQuery): Promise<DayClose> {
  return api<DayClose>('/api/reports/day-close', { query: { date, tz: timeZone } });
}

export const dayCloseQuery = (query: DayCloseQuery) =>
  queryOptions({
    queryKey: ['day-close', query.date, query.timeZone],
    queryFn: () => getDayClose(query),
    // Today's figures change with every game and transfer: opening the screen asks again (its route
    // loader asks as the screen opens; the screen takes that answer rather than asking twice).
    staleTime: SCREEN_FRESH_MS,
  });

export function useDayClose(query: DayCloseQuery) {
  return useQuery(dayCloseQuery(query));
}
