import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';
import { shiftsQueryKey } from './get-current-shift.ts';

export type CloseShiftRequest = { shiftId: number; countedCash: Cents; varianceReason?: string };

/** POST /api/shifts/{id}/close: counts the drawer and ends the shift; answers its Z report. */
export function closeShift({ shiftId, countedCash, varianceReason }: CloseShiftRequest): Promise<ShiftReport> {
  return api<ShiftReport>(`/api/shifts/${shiftId}/close`, {
    method: 'POST',
    body: { countedCash: formatCents(countedCash), ...(varianceReason ? { varianceReason } : {}) },
  });
}

export function useCloseShift() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeShift,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shiftsQueryKey }),
  });
}
