import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type TopupRequest = { userId: number; amount: Cents };

export function topup({ userId, amount }: TopupRequest): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/topup', {
    method: 'POST',
    body: { userId, amount: formatCents(amount) },
    idempotent: true,
  });
}

/** Afterwards the lists (balances) and every transactions list (dashboard volume) reload. */
export function useTopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: topup,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['transactions'] }),
      ]),
  });
}
