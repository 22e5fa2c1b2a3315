import { formatMoney, type Cents } from '@lot/domain/money';

/** The play screen's own words (docs/product/game.md). */
export const ALL_NUMBERS_SELECTED = 'All numbers in the range have been selected!';
export const GAME_SAVED = 'Game saved to Game History';
export const SETUP_LOCKED = 'Range and bet are fixed once the first participant is in. Reset Game to change them.';
export const ANOTHER_SCREEN = 'This game was changed on another screen; it is shown as it is now.';
/**
 * Once the first draw froze the game (entries fixed, pool held, the beacon round named) its outcome
 * is fixed: the shop can only finish it; its upline or an admin may also void it (the server
 * refuses the shop's void with its own words, shown if it happens).
 */
export const OUTCOME_FIXED =
  'The draw has started, so the outcome is fixed: this game can no longer be voided here. Only your agent or an admin can finish or void it.';
export const WAIT_NOTE =
  'The entries are fixed and the pool is held. The draw uses this public round, which nobody could know when the entries were fixed.';

/**
 * The pool is held from the balance at the first draw, which the server refuses when the balance
 * does not cover it (docs/product/game.md#pool-and-balance): said while entries are taken, before
 * a customer pays.
 */
export const poolOverBalance = (pool: Cents, balance: Cents) =>
  `The pool of ${formatMoney(pool)} is more than your balance of ${formatMoney(balance)}: the draw will be refused. Take no more bets until the balance is topped up.`;
export const entryOverBalance = (pool: Cents, balance: Cents) =>
  `With this participant the pool is ${formatMoney(pool)}, more than your balance of ${formatMoney(balance)}: the draw will be refused.`;
