import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BeforeClaimsMarked } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { claimsQueryKey } from './get-claims.ts';

/**
 * POST /api/claims/before-claims/paid (admin): every prize won before prize claims existed is
 * marked paid before claims (decision 060); the lists and the bell's notice follow.
 */
export const markBeforeClaimsPaid = () =>
  api<BeforeClaimsMarked>('/api/claims/before-claims/paid', { method: 'POST', body: {} });

export function useMarkBeforeClaimsPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markBeforeClaimsPaid,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: claimsQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}
