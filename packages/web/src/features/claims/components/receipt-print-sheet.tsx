import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { PayoutReceipt as Receipt } from '@lot/domain/schemas/claims';
import { isThermal, type SlipWidth } from '../../../lib/slip-width.ts';
import { PayoutReceipt } from './payout-receipt.tsx';

/** Receipts to print, each with the server's count of its print (the second and later are COPY). */
export type ReceiptJob = {
  id: number;
  width: SlipWidth;
  receipts: { receipt: Receipt; printCount: number; copy: boolean }[];
};

const MM_PER_PX = 25.4 / 96;

/** A thermal roll's page is as long as the longest receipt (measured, a millimetre to spare); A4 has margins. */
function pageRule(sheet: HTMLElement, width: SlipWidth): string {
  if (!isThermal(width)) return '@page { size: A4; margin: 10mm; }';
  const lengths = [...sheet.querySelectorAll<HTMLElement>('.receipt')].map(
    (receipt) => Math.ceil(receipt.getBoundingClientRect().height * MM_PER_PX) + 1,
  );
  return `@page { size: ${width === '58mm' ? 58 : 80}mm ${Math.max(...lengths, 40)}mm; margin: 0; }`;
}

/**
 * The receipts of a print job under <body>, beside the app, which the print style hides (as the
 * slips print): laid out, the page rule written, then the browser's print dialog. `base` is the
 * public base of the receipts' proof links (lib/public-url.ts).
 */
export function ReceiptPrintSheet({ job, base }: { job: ReceiptJob; base: string }) {
  const sheetRef = useRef<HTMLDivElement>(null);
  const styleRef = useRef<HTMLStyleElement>(null);

  useEffect(() => {
    const sheet = sheetRef.current;
    const style = styleRef.current;
    if (!sheet || !style) return;
    style.textContent = pageRule(sheet, job.width);
    window.print();
  }, [job]);

  return createPortal(
    <div ref={sheetRef} className="receipt-print-sheet" data-width={job.width} data-testid="receipt-print-sheet">
      <style ref={styleRef} />
      {job.receipts.map(({ receipt, printCount, copy }) => (
        <PayoutReceipt
          key={receipt.claim.winnerId}
          receipt={receipt}
          width={job.width}
          printCount={printCount}
          copy={copy}
          base={base}
        />
      ))}
    </div>,
    document.body,
  );
}
