import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimExtendInput, PrizeClaim } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { claimsQueryKey } from './get-claims.ts';

/** POST /api/claims/{winnerId}/extend (admin): more days to collect an unpaid or expired prize, with a reason. */
export const extendClaim = (winnerId: number, input: ClaimExtendInput) =>
  api<PrizeClaim>(`/api/claims/${winnerId}/extend`, { method: 'POST', body: input });

export function useExtendClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ winnerId, input }: { winnerId: number; input: ClaimExtendInput }) => extendClaim(winnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimsQueryKey }),
  });
}
