import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { formatCents, type Cents } from '@lot/domain/money';
import { api } from '../../../lib/api-client.ts';
import { balanceQueryKey } from './get-balance.ts';
import { transactionsQueryKey } from './get-transactions.ts';

export type TransferRequest = { receiverId: number; amount: Cents };

export function transfer({ receiverId, amount }: TransferRequest): Promise<MoneyResult> {
  return api<MoneyResult>('/api/balance/transfer', {
    method: 'POST',
    body: { receiverId, amount: formatCents(amount) },
    idempotent: true,
  });
}

/** Sends money; afterwards the balance (the sender's new one) and every transactions list refresh. */
export function useTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: transfer,
    onSuccess: async (result) => {
      queryClient.setQueryData(balanceQueryKey, result.balance);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: balanceQueryKey }),
        queryClient.invalidateQueries({ queryKey: transactionsQueryKey }),
      ]);
    },
  });
}
