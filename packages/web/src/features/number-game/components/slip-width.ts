/** The slip paper lives in lib/ since shift reports print on it too (docs/product/game.md#slips). */
export * from '../../../lib/slip-width.ts';
