/** The slip paper lives in lib/ since payout receipts and shift reports print on it too (docs/product/game.md#slips). */
export * from '../../../lib/slip-width.ts';
