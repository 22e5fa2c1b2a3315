import { decimalToCents, formatCents } from '@lot/domain/money';
import type { ClaimStatus, ClaimStatusInfo, GameDraw } from '@lot/domain/schemas/games';
import { dateTime } from './format.ts';

/** A prize's claim as the public proof, the result slip and the display carry it. */
export type ClaimState = Pick<ClaimStatusInfo, 'status' | 'paidAt' | 'shopName'>;

/**
 * A prize's claim in words (docs/product/money.md#prize-claims): "Paid {date}, {shop}", "Not paid
 * yet" or "Expired"; a prize won before claims existed says so, never that it can be paid (decision 060). Shared by the Pay prizes screen, the proof, the result slip, the customer
 * display and the winners page.
 */
export function claimStatusText(claim: ClaimState): string {
  if (claim.status === 'paid') {
    const when = claim.paidAt ? dateTime(claim.paidAt) : '';
    return ['Paid', [when, claim.shopName].filter(Boolean).join(', ')].filter(Boolean).join(' ');
  }
  if (claim.status === 'before_claims') return 'Won before prize claims: payment not recorded';
  if (claim.status === 'paid_before_claims') return 'Paid before prize claims';
  return claim.status === 'expired' ? 'Expired' : 'Not paid yet';
}

/** The colour a claim's words take on a light page: paid green, not paid yet amber, expired red. */
export const CLAIM_STATUS_TONE: Record<ClaimStatus, string> = {
  paid: 'text-emerald-700',
  unpaid: 'text-amber-700',
  expired: 'text-rose-700',
  before_claims: 'text-slate-600',
  paid_before_claims: 'text-slate-600',
};

/**
 * What of a settled game's prizes has been paid out so far: the prizes whose claim says paid (at a
 * shop, or marked paid before claims). Null when the draws carry no claims to tell (a game not
 * settled): "Prizes won" is the game's total, this is what reached the winners.
 */
export function prizesPaidSoFar(draws: readonly Pick<GameDraw, 'prizeAmount' | 'claim'>[]): string | null {
  const claimed = draws.filter((draw) => draw.claim);
  if (claimed.length === 0) return null;
  const paid = claimed.filter((draw) => draw.claim?.status === 'paid' || draw.claim?.status === 'paid_before_claims');
  return formatCents(paid.reduce((sum, draw) => sum + decimalToCents(draw.prizeAmount), 0));
}
