import { Printer } from 'lucide-react';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { Button } from '../../../components/ui/button.tsx';
import { CLAIM_STATUS_TONE, claimStatusText } from '../../../lib/claim-status.ts';
import { money } from '../../../lib/format.ts';

/** One prize an entry won: its claim status, the server's reason when this shop may not pay it, and a COPY of a paid one's receipt. */
export function PrizeRow({
  prize,
  justPaid,
  printing,
  onCopy,
}: {
  prize: PrizeClaim;
  justPaid: boolean;
  printing: boolean;
  onCopy: () => void;
}) {
  const status = claimStatusText({ ...prize, shopName: prize.paidAtShop });
  const tone = CLAIM_STATUS_TONE[prize.status];
  // Why this shop may not pay it (paid before, expired, another shop's game): the server's words.
  const refusal = prize.refusal ?? (prize.status === 'paid' && !justPaid ? status : null);
  return (
    <li className="space-y-2 p-3" data-testid="claim-prize" data-status={prize.status}>
      <div className="flex items-center gap-3">
        <span className="flex h-11 w-12 shrink-0 items-center justify-center rounded-lg bg-slate-900 text-xl font-black text-white">
          {prize.number}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-xs font-semibold text-slate-500 uppercase">
            #{prize.position} {prize.prizeName}
          </span>
          <span className={`block text-sm font-semibold ${tone}`} data-testid="claim-status">
            {status}
          </span>
        </span>
        <span className="shrink-0 text-lg font-bold text-slate-900 tabular-nums">{money(prize.amount)}</span>
      </div>
      {refusal && !justPaid && (
        <p
          role="alert"
          data-testid="claim-refusal"
          className="rounded-lg bg-rose-50 px-3 py-2 text-sm font-semibold text-rose-800 ring-1 ring-rose-200"
        >
          {refusal}
        </p>
      )}
      {prize.status === 'paid' && (
        <Button variant="secondary" className="w-full sm:w-auto" disabled={printing} onClick={onCopy}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          {justPaid ? 'Print the receipt again (COPY)' : 'Print a COPY of the receipt'}
        </Button>
      )}
    </li>
  );
}
