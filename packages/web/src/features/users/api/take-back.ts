import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { api } from '../../../lib/api-client.ts';
import { ActionKey, keyedCall } from '../../../lib/action-key.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type TakeBackRequest = { userId: number; amount: Cents; reason: string; fromDrawer?: boolean };

/**
 * POST /api/balance/take-back (docs/product/money.md#take-back) with the action's Idempotency-Key,
 * kept until the server answers (decision 056).
 */
export function takeBack({ userId, amount, reason, fromDrawer }: TakeBackRequest, key: string): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/take-back', {
    method: 'POST',
    body: { userId, amount: formatCents(amount), reason, ...(fromDrawer && { fromDrawer }) },
    idempotent: key,
  });
}

/** One take-back's key until the server answers it: a re-click of the same take-back replays it. */
const takeBackKey = new ActionKey();

/** Afterwards the lists (both balances), the caller's own balance and every transactions list reload. */
export function useTakeBack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TakeBackRequest) => keyedCall(takeBackKey, request, (key) => takeBack(request, key)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['balance'] }),
        queryClient.invalidateQueries({ queryKey: ['transactions'] }),
      ]),
  });
}
