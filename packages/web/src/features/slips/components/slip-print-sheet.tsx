import type { Game, SlipPrint } from '@lot/domain/schemas/games';
import { PrintSheet } from '../../../components/ui/print-sheet.tsx';
import { EntrySlip, ResultSlip } from './slip.tsx';
import type { SlipShop } from './slip-frame.tsx';
import type { SlipWidth } from '../../../lib/slip-width.ts';

/** A print under way: the slips as the server counted them (its answers), on the paper chosen. */
export type PrintJob = { id: number; width: SlipWidth; prints: SlipPrint[] };

/** The slips of a print job, on a print sheet: only these print, each a page of its own on a roll. */
export function SlipPrintSheet({
  job,
  game,
  shop,
  base,
}: {
  job: PrintJob;
  game: Game;
  shop: SlipShop;
  /** The public base of the slips' links (lib/public-url.ts). */
  base: string;
}) {
  return (
    <PrintSheet job={job} width={job.width} className="slip-print-sheet" testId="slip-print-sheet">
      {job.prints.map((print) => {
        if (print.kind === 'result') {
          return <ResultSlip key="result" game={game} shop={shop} width={job.width} base={base} print={print} />;
        }
        const entry = game.entries.find((e) => e.number === print.number);
        return entry ? (
          <EntrySlip
            key={entry.number}
            game={game}
            entry={entry}
            shop={shop}
            width={job.width}
            base={base}
            print={print}
          />
        ) : null;
      })}
    </PrintSheet>
  );
}
