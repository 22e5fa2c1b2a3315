import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { decimalToCents } from '@lot/domain/money';
import { PlayScreen } from '../../features/number-game/components/play-screen.tsx';
import { salesHistoryQueryKey } from '../../features/sales-history/api/sales-page.ts';
import { balanceQueryKey, useBalance } from '../../features/transactions/api/get-balance.ts';
import { transactionsQueryKey } from '../../features/transactions/api/get-transactions.ts';
import { useCurrentUser } from '../../lib/auth.tsx';

/** The full-screen game: the play screen plus the balance it shows, checks and takes the pool from. */
export function NumberGamePlayRoute() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const balance = useBalance();
  const { refetch } = balance;

  const refreshBalance = useCallback(async () => {
    const result = await refetch();
    return result.isSuccess ? decimalToCents(result.data.amount) : null;
  }, [refetch]);

  // The server took the pool in the same transaction that recorded the game.
  const onSettled = useCallback(() => {
    for (const queryKey of [balanceQueryKey, salesHistoryQueryKey, transactionsQueryKey]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient]);

  return (
    <PlayScreen
      user={user}
      balanceCents={balance.data ? decimalToCents(balance.data.amount) : null}
      refreshBalance={refreshBalance}
      onSettled={onSettled}
    />
  );
}
