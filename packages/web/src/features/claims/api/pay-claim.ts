import type { ClaimPayInput, PayoutReceipt, PrizeClaim } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { timeZoneHeader } from '../../../lib/periods.ts';

export type PaidClaim = { claim: PrizeClaim; receipt: PayoutReceipt };

/**
 * POST /api/claims/{winnerId}/pay. `key` is the Idempotency-Key of this payment, made when the
 * form is filled, so a resend (a retry after a lost answer) pays once and answers the same.
 */
export function payClaim(winnerId: number, input: ClaimPayInput, key: string): Promise<PaidClaim> {
  return api<PaidClaim>(`/api/claims/${winnerId}/pay`, {
    method: 'POST',
    body: input,
    idempotent: key,
    headers: timeZoneHeader(),
  });
}
