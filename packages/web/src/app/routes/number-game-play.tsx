import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { decimalToCents } from '@lot/domain/money';
import { PlayScreen } from '../../features/play/components/play-screen.tsx';
import { NoShiftBanner } from '../../features/shifts/components/no-shift-banner.tsx';
import { salesHistoryQueryKey } from '../../features/sales-history/api/sales-page.ts';
import { gamesListQueryKey } from '../../features/sales-history/api/get-voided-games.ts';
import { balanceQueryKey, useBalance } from '../../features/transactions/api/get-balance.ts';
import { transactionsQueryKey } from '../../features/transactions/api/get-transactions.ts';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The full-screen game: the play screen plus the balance it shows, and "No shift open" when so. */
export function NumberGamePlayRoute() {
  useDocumentTitle('BOCH BOCH');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const balance = useBalance();

  // A draw holds the pool (the first) or records the game (the last); a void returns the pool.
  const onMoneyChanged = useCallback(() => {
    for (const queryKey of [balanceQueryKey, salesHistoryQueryKey, transactionsQueryKey, gamesListQueryKey]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient]);

  return (
    <PlayScreen
      user={user}
      balanceCents={balance.data ? decimalToCents(balance.data.amount) : null}
      onMoneyChanged={onMoneyChanged}
      notice={<NoShiftBanner />}
    />
  );
}
