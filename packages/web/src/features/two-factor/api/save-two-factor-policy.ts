import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorPolicy } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';
import { twoFactorPolicyKey } from './get-two-factor-policy.ts';

export const saveTwoFactorPolicy = (policy: TwoFactorPolicy) =>
  api<TwoFactorPolicy & { message: string }>('/api/admin/two-factor-policy', { method: 'PUT', body: policy });

export function useSaveTwoFactorPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTwoFactorPolicy,
    onSuccess: (saved) => queryClient.setQueryData(twoFactorPolicyKey, { roles: saved.roles }),
  });
}
