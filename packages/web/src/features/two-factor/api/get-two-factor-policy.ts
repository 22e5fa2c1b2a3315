import { useQuery } from '@tanstack/react-query';
import type { TwoFactorPolicy } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';

export const twoFactorPolicyKey = ['two-factor', 'policy'] as const;

export const getTwoFactorPolicy = () => api<TwoFactorPolicy>('/api/admin/two-factor-policy');

/** The roles whose users must sign in with two factors (admin only). */
export function useTwoFactorPolicy() {
  return useQuery({ queryKey: twoFactorPolicyKey, queryFn: getTwoFactorPolicy });
}
