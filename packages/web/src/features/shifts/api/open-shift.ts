import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { Shift } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';
import { shiftsQueryKey } from './get-current-shift.ts';

/** POST /api/shifts: opens the shop's shift with the cash put in the drawer. */
export function openShift(openingFloat: Cents): Promise<Shift> {
  return api<Shift>('/api/shifts', { method: 'POST', body: { openingFloat: formatCents(openingFloat) } });
}

export function useOpenShift() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openShift,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shiftsQueryKey }),
  });
}
