import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { api } from '../../../lib/api-client.ts';
import { ActionKey, keyedCall } from '../../../lib/action-key.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type TopupRequest = { userId: number; amount: Cents };

/** POST /api/balance/topup with the action's Idempotency-Key (decision 056). */
export function topup({ userId, amount }: TopupRequest, key: string): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/topup', {
    method: 'POST',
    body: { userId, amount: formatCents(amount) },
    idempotent: key,
  });
}

/** One top-up's key until the server answers it: a re-click of the same top-up replays it. */
const topupKey = new ActionKey();

/** Afterwards the lists (balances) and every transactions list (dashboard volume) reload. */
export function useTopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TopupRequest) => keyedCall(topupKey, request, (key) => topup(request, key)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['transactions'] }),
      ]),
  });
}
