import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { twoFactorStatusKey } from './get-two-factor-status.ts';

export const disableTwoFactor = (code: string) =>
  api<{ message: string }>('/api/auth/two-factor/disable', { method: 'POST', body: { code } });

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusKey });
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
  });
}
