import type { PayoutReceipt } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';

/** GET /api/claims/{winnerId}/receipt: a paid claim's receipt (for a copy). */
export function getPayoutReceipt(winnerId: number): Promise<PayoutReceipt> {
  return api<PayoutReceipt>(`/api/claims/${winnerId}/receipt`);
}

export type ReceiptPrint = { printCount: number; copy: boolean };

/**
 * POST /api/claims/{winnerId}/receipt/prints: counts a print before it is made; the second and
 * later prints are a COPY whichever device printed the first.
 */
export function countReceiptPrint(winnerId: number): Promise<ReceiptPrint> {
  return api<ReceiptPrint>(`/api/claims/${winnerId}/receipt/prints`, { method: 'POST' });
}
