import { decimalText, type Cents } from './money.ts';

/** The game's constants: docs/product/game.md. */
export const GAME_RULES = {
  minNumber: 1,
  maxNumber: 100,
  defaultStart: 1,
  defaultEnd: 20,
  defaultBetCents: 1000,
  minBetCents: 100,
  /** Numbers Left: each remaining number stays 3 s, and the overlay closes 3 s after the last. */
  numbersLeftIntervalMs: 3000,
  numbersLeftAudioVolume: 0.7,
  /** The hint after entering fullscreen. */
  fullscreenHintMs: 5000,
} as const;

/** Percentages travel as decimals with two places and are kept as basis points (0–10000). */
export function parsePercentToBps(input: unknown): number | null {
  const text = decimalText(input);
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}

export function formatBps(bps: number): string {
  return `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}

/** docs/product/money.md#prizes: a prize is floor(pool × percent / 100) to the cent (BigInt: no overflow). */
export function prizeFor(poolCents: Cents, percentBps: number): Cents {
  return Number((BigInt(poolCents) * BigInt(percentBps)) / 10_000n);
}

/** A count with its noun, singular for one: "1 winner", "0 winners", "2 winners". */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A held game's ledger row (docs/product/money.md#game-pool): 'Game in progress with N numbers'. */
export const heldGameDescription = (numbers: number) => `Game in progress with ${counted(numbers, 'number')}`;

/**
 * A settled game's ledger row: 'Game played with N numbers, M winners' (the spec's words), a count
 * of one in the singular ('1 winner', not '1 winners').
 */
export const playedGameDescription = (numbers: number, winners: number) =>
  `Game played with ${counted(numbers, 'number')}, ${counted(winners, 'winner')}`;

/**
 * A payout receipt's number: its prize's winner id, the number the API and the claims export know it
 * by, so every copy of one payout carries the same number (decision 090); six digits at least, so
 * that it reads as a number on paper (`P-000123`).
 */
export const receiptNumber = (winnerId: number) => `P-${String(winnerId).padStart(6, '0')}`;

/**
 * A ledger row's description as it is shown. Game rows written before the helpers above put a count
 * of one in the singular read 'Game played with 1 numbers, 1 winners'; the ledger is never
 * rewritten, so the reads say it right ('11 winners' stays).
 */
export const ledgerDescription = (description: string | null) =>
  description === null ? null : description.replace(/\b1 (number|winner)s\b/g, '1 $1');

export type Participant = { number: number; name: string; phoneNumber: string };
export type PrizeSetting = { position: number; percentBps: number };
export type GameWinner = Participant & { position: number; prizeAmount: Cents };

export type Settlement = {
  pool: Cents;
  winners: GameWinner[];
  totalPrize: Cents;
  commission: Cents;
};

/**
 * The outcome of a game: pool = selected numbers × bet; the i-th drawn number wins the i-th
 * prize position if a participant picked it (otherwise that prize is not paid: "No winner");
 * commission = pool − prizes paid, so prizes + commission always equal the pool exactly.
 */
export function settleGame(input: {
  selected: readonly Participant[];
  drawn: readonly number[];
  settings: readonly PrizeSetting[];
  betCents: Cents;
}): Settlement {
  const pool = input.selected.length * input.betCents;
  const byNumber = new Map(input.selected.map((p) => [p.number, p]));
  const winners: GameWinner[] = [];
  input.drawn.forEach((number, index) => {
    const setting = input.settings[index];
    const participant = byNumber.get(number);
    if (!setting || !participant) return;
    winners.push({ ...participant, position: setting.position, prizeAmount: prizeFor(pool, setting.percentBps) });
  });
  const totalPrize = winners.reduce((sum, w) => sum + w.prizeAmount, 0);
  return { pool, winners, totalPrize, commission: pool - totalPrize };
}

/** Sum of active percentages, for the "total should be 100%" notes. */
export function totalPercentBps(settings: readonly { percentBps: number; isActive: boolean }[]): number {
  return settings.filter((s) => s.isActive).reduce((sum, s) => sum + s.percentBps, 0);
}

/** The numbers start..end in order. */
export function numbersInRange(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
}

/** Numbers Left (docs/product/game.md#numbers-left): the numbers of the range nobody chose and nobody drew, in order. */
export function numbersLeft(
  start: number,
  end: number,
  selected: readonly number[],
  drawn: readonly number[],
): number[] {
  const taken = new Set([...selected, ...drawn]);
  return numbersInRange(start, end).filter((n) => !taken.has(n));
}

/**
 * How a person reads a game's name: "Game #N", N its shop's game number (1, 2, 3… per shop;
 * docs/product/game.md#game-numbers, decision 037). A sale without a round has no number: "Game".
 */
export function gameTitle(number: number | null | undefined): string {
  return number === null || number === undefined ? 'Game' : `Game #${number}`;
}
