import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimApproveInput, PrizeClaim } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { claimsQueryKey } from './get-claims.ts';

/**
 * POST /api/claims/{winnerId}/approve (admin): a prize whose entry has no entry code may be paid to
 * the claimer with this ID number (decision 086).
 */
export const approveClaim = (winnerId: number, input: ClaimApproveInput) =>
  api<PrizeClaim>(`/api/claims/${winnerId}/approve`, { method: 'POST', body: input });

export function useApproveClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ winnerId, input }: { winnerId: number; input: ClaimApproveInput }) => approveClaim(winnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimsQueryKey }),
  });
}
