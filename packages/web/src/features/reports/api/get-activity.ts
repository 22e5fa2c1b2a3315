import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Activity } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/periods.ts';

/**
 * The last `days` local days up to today, or whole local days from–to; in the zone, else the
 * browser's (looked up when the call is made, after the first paint: docs/ARCHITECTURE.md).
 */
export type ActivityQuery = ({ days: number } | { from: string; to: string }) & { timeZone?: string };

/** GET /api/reports/activity (docs/product/reports.md#activity). */
export function getActivity(query: ActivityQuery): Promise<Activity> {
  const { timeZone, ...period } = query;
  return api<Activity>('/api/reports/activity', { query: { ...period, tz: timeZone ?? browserTimeZone() } });
}

/** Under ['activity'] beside the games and the money it sums: one call feeds a dashboard's chart and its changes. */
export const activityQuery = (query: ActivityQuery) =>
  queryOptions({
    queryKey: ['activity', query],
    queryFn: () => getActivity(query),
    placeholderData: keepPreviousData,
  });

/** The dashboards compare the last 30 local days with the 30 before (docs/product/screens.md#admin-dashboard). */
export const DASHBOARD_DAYS = 30;

/** A dashboard's activity: one call for its chart and its changes. */
export const dashboardActivityQuery = () => activityQuery({ days: DASHBOARD_DAYS });

export function useActivity(query: ActivityQuery) {
  return useQuery(activityQuery(query));
}
