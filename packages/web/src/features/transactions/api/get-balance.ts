import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Balance } from '@lot/domain/schemas/balance';
import { api } from '../../../lib/api-client.ts';

/** The signed-in user's balance. A transfer invalidates this key. */
export const balanceQueryKey = ['balance'] as const;

export function getBalance(): Promise<Balance> {
  return api<Balance>('/api/balance');
}

export const balanceQuery = () => queryOptions({ queryKey: balanceQueryKey, queryFn: getBalance });

export function useBalance() {
  return useQuery(balanceQuery());
}
