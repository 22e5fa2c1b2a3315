import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { ShiftMovement, ShiftMovementKind } from '@lot/domain/schemas/shifts';
import { api } from '../../../lib/api-client.ts';
import { ActionKey, keyedCall } from '../../../lib/action-key.ts';
import { shiftsQueryKey } from './get-current-shift.ts';

export type MovementRequest = {
  shiftId: number;
  kind: ShiftMovementKind;
  amount: Cents;
  reason: string;
  takenBy?: string;
};

/**
 * POST /api/shifts/{id}/movements (docs/product/shifts.md#cash-movements) with the action's
 * Idempotency-Key, kept until the server answers (decision 056): a re-click records it once.
 */
export function recordMovement({ shiftId, amount, ...rest }: MovementRequest, key: string): Promise<ShiftMovement> {
  return api<ShiftMovement>(`/api/shifts/${shiftId}/movements`, {
    method: 'POST',
    body: { ...rest, amount: formatCents(amount) },
    idempotent: key,
  });
}

const movementKey = new ActionKey();

/** Afterwards the shift (its X report and expected cash) reloads. */
export function useRecordMovement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: MovementRequest) => keyedCall(movementKey, request, (key) => recordMovement(request, key)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shiftsQueryKey }),
  });
}
