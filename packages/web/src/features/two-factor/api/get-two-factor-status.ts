import { useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';

export const twoFactorStatusKey = ['two-factor', 'status'] as const;

export const getTwoFactorStatus = () => api<TwoFactorStatus>('/api/auth/two-factor');

/** Whether the caller has two-factor sign-in, whether the role requires it, recovery codes left. */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorStatusKey, queryFn: getTwoFactorStatus });
}
