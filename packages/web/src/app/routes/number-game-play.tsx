import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { decimalToCents } from '@lot/domain/money';
import { PlayScreen } from '../../features/play/components/play-screen.tsx';
import type { PrintEntrySlip } from '../../features/play/hooks/use-game-controller.ts';
import { NoShiftBanner } from '../../features/shifts/components/no-shift-banner.tsx';
import { salesHistoryQueryKey } from '../../features/sales-history/api/sales-page.ts';
import { gamesListQueryKey } from '../../features/sales-history/api/get-voided-games.ts';
import { useSlipPrinter } from '../../features/slips/hooks/use-slip-printer.tsx';
import { balanceQueryKey, useBalance } from '../../features/transactions/api/get-balance.ts';
import { transactionsQueryKey } from '../../features/transactions/api/get-transactions.ts';
import { useCurrentUser } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * The full-screen game: the play screen plus the balance it shows, "No shift open" when so, and the
 * slips' printer, so a customer's slip prints as their entry is saved, on the paper the Slips page chose.
 */
export function NumberGamePlayRoute() {
  useDocumentTitle('BOCH BOCH');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const balance = useBalance();
  const slips = useSlipPrinter({ id: user.id, hasLogo: user.hasLogo });
  const { print } = slips;
  const printSlip = useCallback<PrintEntrySlip>((game, number) => print(game, [{ kind: 'entry', number }]), [print]);

  // A draw holds the pool (the first) or records the game (the last); a void returns the pool.
  const onMoneyChanged = useCallback(() => {
    for (const queryKey of [balanceQueryKey, salesHistoryQueryKey, transactionsQueryKey, gamesListQueryKey]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient]);

  return (
    <>
      <PlayScreen
        user={user}
        balanceCents={balance.data ? decimalToCents(balance.data.amount) : null}
        onMoneyChanged={onMoneyChanged}
        printSlip={printSlip}
        notice={<NoShiftBanner />}
      />
      {slips.sheet}
    </>
  );
}
