// The slip paper lives in lib/ since the payout receipt (features/claims) prints on it too.
export * from '../../../lib/slip-width.ts';
