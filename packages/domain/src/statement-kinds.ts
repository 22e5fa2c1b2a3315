/**
 * What moved an account's balance (docs/product/money.md#statements): money in (`topup`,
 * `transferIn`, `takeBackIn`: this account took money back from someone in its scope,
 * `gamePoolReturned`: a voided game's pool), money out (`transferOut`, `correction`, `takeBackOut`:
 * taken back from this account, `gamePoolHeld`: a game's first draw), and `gameSettled`, which moves
 * nothing (the pool left when it was held). No zod here: the statement screen reads the labels.
 */
export const STATEMENT_KINDS = [
  'topup',
  'transferIn',
  'transferOut',
  'correction',
  'takeBackIn',
  'takeBackOut',
  'gamePoolHeld',
  'gameSettled',
  'gamePoolReturned',
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

const LABELS: Record<StatementKind, string> = {
  topup: 'Top-up',
  transferIn: 'Transfer received',
  transferOut: 'Transfer sent',
  correction: 'Correction',
  takeBackIn: 'Taken back from',
  takeBackOut: 'Taken back by',
  gamePoolHeld: 'Game pool held',
  gameSettled: 'Game settled',
  gamePoolReturned: 'Game pool returned',
};

/** A movement's kind in words, as the statement screen and its CSV and Excel files say it. */
export function statementKindLabel(kind: StatementKind): string {
  return LABELS[kind];
}
