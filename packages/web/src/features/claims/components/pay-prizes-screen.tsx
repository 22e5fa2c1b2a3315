import { useState } from 'react';
import { Card, PageHeading } from '../../../components/ui/panels.tsx';
import { useSlipWidth } from '../../../lib/slip-width.ts';
import type { ClaimKey } from './entry-code.ts';
import { FindPrizeCard } from './find-prize-card.tsx';
import { LookupResult } from './lookup-result.tsx';
import { useReceiptPrinter } from './receipt-print-sheet.tsx';

/**
 * docs/product/screens.md#pay-prizes (/user/pay-prizes): the shop scans the winner's entry slip (or
 * types its entry code), sees what it won, writes down who collects it and pays; the payout receipt
 * prints on the shop's slip paper. A prize paid before says where and when, and offers only a copy
 * of its receipt.
 */
export function PayPrizesScreen() {
  const [key, setKey] = useState<ClaimKey | null>(null);
  const [width, setWidth] = useSlipWidth();
  const printer = useReceiptPrinter(width);

  return (
    <div className="space-y-6">
      <PageHeading title="Pay Prizes">
        Scan the winner’s entry slip or type its entry code, then pay the prize in cash and print the receipt.
      </PageHeading>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <FindPrizeCard onKey={setKey} width={width} onWidth={setWidth} />
        <div aria-live="polite">
          {key ? (
            <LookupResult
              key={`${key.code ?? ''}:${key.entry}`}
              claimKey={key}
              onPrint={printer.print}
              onDone={() => setKey(null)}
            />
          ) : (
            <Card>
              <p className="py-8 text-center text-sm text-slate-500">
                Scan an entry slip or type its code to see what it won.
              </p>
            </Card>
          )}
        </div>
      </div>
      {printer.sheet}
    </div>
  );
}
