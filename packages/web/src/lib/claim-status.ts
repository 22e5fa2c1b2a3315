import { dateTime } from './format.ts';

/** A prize's claim as the public proof, the result slip and the display carry it. */
export type ClaimState = {
  status: 'unpaid' | 'paid' | 'expired';
  paidAt: string | null;
  /** The shop that paid it. */
  shopName: string | null;
};

/**
 * A prize's claim in words (docs/product/money.md#prize-claims): "Paid {date}, {shop}", "Not paid
 * yet" or "Expired". Shared by the Pay prizes screen, the proof, the result slip, the customer
 * display and the winners page.
 */
export function claimStatusText(claim: ClaimState): string {
  if (claim.status === 'paid') {
    const when = claim.paidAt ? dateTime(claim.paidAt) : '';
    return ['Paid', [when, claim.shopName].filter(Boolean).join(', ')].filter(Boolean).join(' ');
  }
  return claim.status === 'expired' ? 'Expired' : 'Not paid yet';
}
