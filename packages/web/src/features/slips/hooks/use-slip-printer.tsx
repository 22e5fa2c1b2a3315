import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Game, SlipPrintInput } from '@lot/domain/schemas/games';
import { useLogo } from '../../../components/ui/avatar.tsx';
import { usePublicBase } from '../../../lib/public-url.ts';
import { loadSlipWidth, type SlipWidth } from '../../../lib/slip-width.ts';
import { gameLogQuery, useGameLog } from '../api/get-game-log.ts';
import { slipsQueryKey } from '../api/get-slips.ts';
import { printSlip } from '../api/print-slip.ts';
import type { SlipShop } from '../components/slip-frame.tsx';
import { SlipPrintSheet, type PrintJob } from '../components/slip-print-sheet.tsx';

/** What a print that could not be recorded says (docs/product/screens.md#slips); nothing was printed. */
const printNotRecorded = (failure: unknown) =>
  `The print could not be recorded, so nothing was printed: ${failure instanceof Error ? failure.message : String(failure)}`;

/**
 * Prints a shop's slips, wherever the shop is: the Slips page and the play screen, where the cashier
 * hands the customer their slip as the entry is saved (docs/product/game.md#slips). `print` records
 * each slip's print on the server first (its count decides COPY), then prints the slips as the
 * server counted them on the paper chosen on this device; it answers the failure to show (nothing
 * printed) or null. `sheet` is the print sheet to render while a print is under way.
 */
export function useSlipPrinter(player: { id: number; hasLogo: boolean }) {
  const logoUrl = useLogo(player.id, player.hasLogo);
  const gameLog = useGameLog();
  const { base, unreachable } = usePublicBase();
  const queryClient = useQueryClient();
  const [job, setJob] = useState<(PrintJob & { game: Game }) | null>(null);

  // Once the dialog closes, the printed slips leave the page: a later Ctrl+P prints nothing unrecorded.
  useEffect(() => {
    const done = () => setJob(null);
    window.addEventListener('afterprint', done);
    return () => window.removeEventListener('afterprint', done);
  }, []);

  const shopOf = (game: Game): SlipShop => ({
    name: game.user.shopName?.trim() || game.user.fullName,
    logoUrl,
    log: gameLog.data ? { origin: gameLog.data.origin, witnesses: gameLog.data.witnesses.map((w) => w.name) } : null,
  });

  const print = useCallback(
    async (game: Game, targets: SlipPrintInput[], width: SlipWidth = loadSlipWidth()): Promise<string | null> => {
      try {
        const prints = await Promise.all(targets.map((target) => printSlip(game.id, target)));
        // An entry slip names the game log and its witnesses: known before it prints, when the server answers.
        await queryClient.ensureQueryData(gameLogQuery()).catch(() => undefined);
        setJob((previous) => ({ id: (previous?.id ?? 0) + 1, width, prints, game }));
        return null;
      } catch (failure) {
        return printNotRecorded(failure);
      } finally {
        void queryClient.invalidateQueries({ queryKey: slipsQueryKey(game.id) });
      }
    },
    [queryClient],
  );

  const sheet =
    job && base !== null ? (
      <SlipPrintSheet key={job.id} job={job} game={job.game} shop={shopOf(job.game)} base={base} />
    ) : null;
  return { print, sheet, shopOf, base, unreachable };
}
