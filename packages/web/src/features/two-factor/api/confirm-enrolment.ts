import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorEnabled } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';
import { twoFactorStatusKey } from './get-two-factor-status.ts';

export const confirmEnrolment = (code: string) =>
  api<TwoFactorEnabled>('/api/auth/two-factor/confirm', { method: 'POST', body: { code } });

/** The first code turns it on; the answer holds the recovery codes, shown this once. */
export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEnrolment,
    onSuccess: async () => {
      // The other sessions ended: the list of sessions changed too.
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusKey });
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
  });
}
