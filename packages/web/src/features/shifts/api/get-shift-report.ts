import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';
import { shiftsQueryKey, X_REPORT_REFRESH_MS } from './get-current-shift.ts';

/** GET /api/shifts/{id}/report: the X report of an open shift, the stored Z report of a closed one. */
export const shiftReportQuery = (shiftId: number) =>
  queryOptions({
    queryKey: [...shiftsQueryKey, 'report', shiftId],
    queryFn: () => api<ShiftReport>(`/api/shifts/${shiftId}/report`),
    // A Z report never changes; an X report follows the shift.
    refetchInterval: (query) => (query.state.data?.kind === 'X' ? X_REPORT_REFRESH_MS : false),
  });

export function useShiftReport(shiftId: number | null) {
  return useQuery({ ...shiftReportQuery(shiftId ?? 0), enabled: shiftId !== null });
}
