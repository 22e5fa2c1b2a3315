import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShiftSummary } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';
import { shiftsQueryKey } from './get-current-shift.ts';

/** GET /api/shifts/summary: the dashboard card's figures over the caller's shops (today is the UTC day). */
export const shiftSummaryQuery = () =>
  queryOptions({
    queryKey: [...shiftsQueryKey, 'summary'],
    queryFn: () => api<ShiftSummary>('/api/shifts/summary'),
  });

export function useShiftSummary() {
  return useQuery(shiftSummaryQuery());
}
