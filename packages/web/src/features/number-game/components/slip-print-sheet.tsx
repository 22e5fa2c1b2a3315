import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { Game, SlipPrint } from '@lot/domain/schemas/games';
import { EntrySlip, ResultSlip, type SlipShop } from './slip.tsx';
import { isThermal, type SlipWidth } from './slip-width.ts';

/** A print under way: the slips as the server counted them (its answers), on the paper chosen. */
export type PrintJob = { id: number; width: SlipWidth; prints: SlipPrint[] };

const MM_PER_PX = 25.4 / 96;

/**
 * The `@page` rules for a job: on a thermal roll each slip is a page of its own, the paper's width
 * wide and as long as the slip (measured here, a millimetre to spare); a sheet is A4 with margins.
 */
function pageRules(sheet: HTMLElement, width: SlipWidth): string {
  if (!isThermal(width)) return '@page { size: A4; margin: 10mm; }';
  const paper = width === '58mm' ? 58 : 80;
  const slips = [...sheet.querySelectorAll<HTMLElement>('.slip')];
  const lengths = slips.map((slip) => Math.ceil(slip.getBoundingClientRect().height * MM_PER_PX) + 1);
  const longest = Math.max(...lengths, 40);
  return [
    `@page { size: ${paper}mm ${longest}mm; margin: 0; }`,
    ...lengths.map(
      (length, index) =>
        `@page slip-${index} { size: ${paper}mm ${length}mm; margin: 0; } .slip-print-sheet .slip[data-page='slip-${index}'] { page: slip-${index}; }`,
    ),
  ].join('\n');
}

/**
 * The slips of a print job, rendered under <body> beside the app, which the print style hides: only
 * these print. Once laid out (and the logo decoded) the page rules are written and the browser's
 * print dialog opens.
 */
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
  const sheetRef = useRef<HTMLDivElement>(null);
  const styleRef = useRef<HTMLStyleElement>(null);

  useEffect(() => {
    const sheet = sheetRef.current;
    const style = styleRef.current;
    if (!sheet || !style) return;
    let cancelled = false;
    const images = [...sheet.querySelectorAll('img')].map((image) => image.decode().catch(() => undefined));
    void Promise.all(images).then(() => {
      if (cancelled) return;
      sheet.querySelectorAll<HTMLElement>('.slip').forEach((slip, index) => {
        slip.dataset.page = `slip-${index}`;
      });
      style.textContent = pageRules(sheet, job.width);
      window.print();
    });
    return () => {
      cancelled = true;
    };
  }, [job]);

  return createPortal(
    <div ref={sheetRef} className="slip-print-sheet" data-width={job.width} data-testid="slip-print-sheet">
      <style ref={styleRef} />
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
    </div>,
    document.body,
  );
}
