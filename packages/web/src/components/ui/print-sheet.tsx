import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { isThermal, type SlipWidth } from '../../lib/slip-width.ts';
import './print-sheet.css';

const MM_PER_PX = 25.4 / 96;

/**
 * The `@page` rules of a sheet: on a thermal roll each piece is a page of its own, the paper's width
 * wide and as long as the piece (measured here, a millimetre to spare); a sheet of A4 has margins.
 */
function pageRules(pieces: HTMLElement[], width: SlipWidth, a4Margin: string): string {
  if (!isThermal(width)) return `@page { size: A4; margin: ${a4Margin}; }`;
  const paper = width === '58mm' ? 58 : 80;
  const lengths = pieces.map((piece) => Math.ceil(piece.getBoundingClientRect().height * MM_PER_PX) + 1);
  return [
    `@page { size: ${paper}mm ${Math.max(...lengths, 40)}mm; margin: 0; }`,
    ...lengths.map(
      (length, index) =>
        `@page piece-${index} { size: ${paper}mm ${length}mm; margin: 0; } .print-sheet > [data-page='piece-${index}'] { page: piece-${index}; }`,
    ),
  ].join('\n');
}

/**
 * What a print job prints — slips, payout receipts, a shift report (docs/product/game.md#slips) —
 * rendered under <body> beside the app, which the print style hides: only the sheet prints. Each
 * child is a piece; once laid out (and its images decoded) the page rules are written and the
 * browser's print dialog opens. A new `job` prints again.
 */
export function PrintSheet({
  job,
  width,
  a4Margin = '10mm',
  className,
  testId,
  children,
}: {
  job: unknown;
  width: SlipWidth;
  a4Margin?: string;
  /** The feature's own class, for its layout of the pieces (say, two slips a row on A4). */
  className: string;
  testId: string;
  children: ReactNode;
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
      const pieces = [...sheet.querySelectorAll<HTMLElement>(':scope > :not(style)')];
      pieces.forEach((piece, index) => {
        piece.dataset.page = `piece-${index}`;
      });
      style.textContent = pageRules(pieces, width, a4Margin);
      window.print();
    });
    return () => {
      cancelled = true;
    };
  }, [job, width, a4Margin]);

  return createPortal(
    <div ref={sheetRef} className={`print-sheet ${className}`} data-width={width} data-testid={testId}>
      <style ref={styleRef} />
      {children}
    </div>,
    document.body,
  );
}
