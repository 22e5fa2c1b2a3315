import type { PayoutReceipt as Receipt } from '@lot/domain/schemas/claims';
import { PrintSheet } from '../../../components/ui/print-sheet.tsx';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import { PayoutReceipt } from './payout-receipt.tsx';

/** Receipts to print, each with the server's count of its print (the second and later are COPY). */
export type ReceiptJob = {
  id: number;
  width: SlipWidth;
  receipts: { receipt: Receipt; printCount: number; copy: boolean }[];
};

/**
 * The receipts of a print job on a print sheet (as the slips print). `base` is the public base of
 * the receipts' proof links (lib/public-url.ts).
 */
export function ReceiptPrintSheet({ job, base }: { job: ReceiptJob; base: string }) {
  return (
    <PrintSheet job={job} width={job.width} className="receipt-print-sheet" testId="receipt-print-sheet">
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
    </PrintSheet>
  );
}
