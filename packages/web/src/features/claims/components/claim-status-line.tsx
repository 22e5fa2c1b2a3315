import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { claimStatusText } from '../../../lib/claim-status.ts';

const TONE: Record<PrizeClaim['status'], string> = {
  paid: 'text-emerald-700',
  unpaid: 'text-amber-700',
  expired: 'text-rose-700',
};

/** A prize's claim in words, coloured by its status: "Paid {date}, {shop}", "Not paid yet", "Expired". */
export function ClaimStatusLine({ claim }: { claim: PrizeClaim }) {
  return (
    <span
      data-testid="claim-status"
      data-status={claim.status}
      className={`text-sm font-semibold ${TONE[claim.status]}`}
    >
      {claimStatusText({ ...claim, shopName: claim.paidAtShop })}
    </span>
  );
}
