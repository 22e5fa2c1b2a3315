import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentShift } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';

/** How often the open shift's X report is asked for again while the screen is open. */
export const X_REPORT_REFRESH_MS = 15_000;

export const shiftsQueryKey = ['shifts'] as const;

/** GET /api/shifts/current: the shop's open shift and its X report, or none (docs/product/screens.md#shift). */
export const currentShiftQuery = () =>
  queryOptions({
    queryKey: [...shiftsQueryKey, 'current'],
    queryFn: () => api<CurrentShift>('/api/shifts/current'),
    refetchInterval: X_REPORT_REFRESH_MS,
  });

export function useCurrentShift() {
  return useQuery(currentShiftQuery());
}
