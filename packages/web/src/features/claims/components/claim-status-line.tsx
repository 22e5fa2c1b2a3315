import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { CLAIM_STATUS_TONE, claimStatusText } from '../../../lib/claim-status.ts';

/** A prize's claim in words, coloured by its status: "Paid {date}, {shop}", "Not paid yet", "Expired". */
export function ClaimStatusLine({ claim }: { claim: PrizeClaim }) {
  return (
    <span
      data-testid="claim-status"
      data-status={claim.status}
      className={`text-sm font-semibold ${CLAIM_STATUS_TONE[claim.status]}`}
    >
      {claimStatusText({ ...claim, shopName: claim.paidAtShop })}
    </span>
  );
}
