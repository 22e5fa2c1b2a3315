import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type TakeBackRequest = { userId: number; amount: Cents; reason: string };

/** POST /api/balance/take-back (docs/product/money.md#take-back), once per submit (an idempotency key). */
export function takeBack({ userId, amount, reason }: TakeBackRequest): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/take-back', {
    method: 'POST',
    body: { userId, amount: formatCents(amount), reason },
    idempotent: true,
  });
}

/** Afterwards the lists (both balances), the caller's own balance and every transactions list reload. */
export function useTakeBack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeBack,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['balance'] }),
        queryClient.invalidateQueries({ queryKey: ['transactions'] }),
      ]),
  });
}
