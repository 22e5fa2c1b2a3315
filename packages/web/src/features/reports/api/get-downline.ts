import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Downline } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';

/** A downline report asked for: whose children (the caller's when none), whole local days from–to in the zone. */
export type DownlineQuery = { parentId?: number; from: string; to: string; timeZone: string };

/** GET /api/reports/downline (docs/product/reports.md#downline-report). */
export function getDownline({ parentId, from, to, timeZone }: DownlineQuery): Promise<Downline> {
  return api<Downline>('/api/reports/downline', { query: { parentId, from, to, tz: timeZone } });
}

export const downlineQuery = (query: DownlineQuery) =>
  queryOptions({
    queryKey: ['downline', query],
    queryFn: () => getDownline(query),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useDownline(query: DownlineQuery) {
  return useQuery(downlineQuery(query));
}
