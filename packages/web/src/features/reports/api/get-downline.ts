import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Downline } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';
import { SCREEN_FRESH_MS } from '../../../lib/query-client.ts';
import { browserTimeZone, periodFrom } from '../../../lib/periods.ts';

/** A downline report asked for: whose children (the caller's when none), whole local days from–to in the zone. */
export type DownlineQuery = { parentId?: number; from: string; to: string; timeZone: string };

/** The drill-down path in ?trail= (ids from the caller down); the report is of its last node. */
export function trailAt(params: URLSearchParams): number[] {
  return (params.get('trail') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
}

/** The report a screen at this address shows: ?from=&to= (this month by default) and ?trail=. */
export function downlineQueryAt(params: URLSearchParams): DownlineQuery {
  const { from, to } = periodFrom(params);
  return { parentId: trailAt(params).at(-1), from, to, timeZone: browserTimeZone() };
}

/** GET /api/reports/downline (docs/product/reports.md#downline-report). */
export function getDownline({ parentId, from, to, timeZone }: DownlineQuery): Promise<Downline> {
  return api<Downline>('/api/reports/downline', { query: { parentId, from, to, tz: timeZone } });
}

export const downlineQuery = (query: DownlineQuery) =>
  queryOptions({
    queryKey: ['downline', query],
    queryFn: () => getDownline(query),
    // Asked again whenever the screen opens (its route loader asks as it opens; the screen takes that answer).
    staleTime: SCREEN_FRESH_MS,
    placeholderData: keepPreviousData,
  });

export function useDownline(query: DownlineQuery) {
  return useQuery(downlineQuery(query));
}
