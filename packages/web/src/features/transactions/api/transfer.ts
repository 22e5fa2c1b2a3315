import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { formatCents, type Cents } from '@lot/domain/money';
import { api } from '../../../lib/api-client.ts';
import { ActionKey, keyedCall } from '../../../lib/action-key.ts';
import { balanceQueryKey } from './get-balance.ts';
import { transactionsQueryKey } from './get-transactions.ts';

export type TransferRequest = { receiverId: number; amount: Cents };

/** POST /api/balance/transfer with the action's Idempotency-Key (decision 056). */
export function transfer({ receiverId, amount }: TransferRequest, key: string): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/transfer', {
    method: 'POST',
    body: { receiverId, amount: formatCents(amount) },
    idempotent: key,
  });
}

/** One transfer's key until the server answers it: a re-click of the same transfer replays it. */
const transferKey = new ActionKey();

/** Sends money; afterwards the balance (the sender's new one) and every transactions list refresh. */
export function useTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TransferRequest) => keyedCall(transferKey, request, (key) => transfer(request, key)),
    onSuccess: async (result) => {
      queryClient.setQueryData(balanceQueryKey, result.balance);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: balanceQueryKey }),
        queryClient.invalidateQueries({ queryKey: transactionsQueryKey }),
      ]);
    },
  });
}
