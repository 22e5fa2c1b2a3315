import { useCallback, useState } from 'react';
import type { PayoutReceipt as Receipt } from '@lot/domain/schemas/claims';
import { PrintSheet } from '../../../components/ui/print-sheet.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { usePublicBase } from '../../../lib/public-url.ts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import type { PaidClaim } from '../api/pay-claim.ts';
import { countReceiptPrint, getPayoutReceipt } from '../api/payout-receipt.ts';
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
function ReceiptPrintSheet({ job, base }: { job: ReceiptJob; base: string }) {
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

/** Counts a print of each paid claim's receipt and fetches what it says (a copy when printed before). */
async function receiptsToPrint(claims: readonly PaidClaim[] | readonly number[]): Promise<ReceiptJob['receipts']> {
  return Promise.all(
    claims.map(async (item) => {
      const winnerId = typeof item === 'number' ? item : item.claim.winnerId;
      const [receipt, print] = await Promise.all([
        typeof item === 'number' ? getPayoutReceipt(winnerId) : Promise.resolve(item.receipt),
        countReceiptPrint(winnerId),
      ]);
      return { receipt: { ...receipt, printCount: print.printCount }, printCount: print.printCount, copy: print.copy };
    }),
  );
}

/**
 * Prints payout receipts on `width`: `print` takes the claims just paid (their receipts came with
 * the payment) or the winner ids of receipts printed again; a failure is a toast and prints nothing.
 * `sheet` is what the screen renders for the print.
 */
export function useReceiptPrinter(width: SlipWidth) {
  const toast = useToast();
  const [job, setJob] = useState<ReceiptJob | null>(null);
  // Asked now, so a receipt prints at once; a job waits until the base is known.
  const { base } = usePublicBase();

  const print = useCallback(
    async (claims: readonly PaidClaim[] | readonly number[]) => {
      try {
        setJob({ id: Date.now(), width, receipts: await receiptsToPrint(claims) });
      } catch (error) {
        toast.error(`Error: ${errorMessage(error, 'Failed to print the receipt')}`);
      }
    },
    [width, toast],
  );

  const sheet = job && base !== null ? <ReceiptPrintSheet key={job.id} job={job} base={base} /> : null;
  return { print, sheet };
}
