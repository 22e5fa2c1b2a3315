import { useEffect, useState } from 'react';
import type { GameBeacon, GameStatus } from '@lot/domain/schemas/games';

/**
 * A LOT-DRAW-2 game between its freeze and its beacon round R (docs/lot-draw-2.md): the entries
 * are fixed and the pool held, and nothing can be drawn until drand publishes round R, which
 * nobody knows before. The play screen asks the server again until R is there; the customer
 * display only waits for the draw the server sends.
 */
export type BeaconWait = {
  round: number;
  /** When R is due, on this device's clock (ms). */
  dueAt: number;
  /** R's time has passed and no relay has answered it yet. */
  unreachable: boolean;
  /** The last ask failed (the network, the server): said, and asked again. */
  error: string | null;
};

/** The longest pause between two asks while a round is late or the server does not answer. */
export const MAX_ASK_DELAY_MS = 10_000;

/**
 * A frozen game waiting for its round: `drawing`, R named and R's signature not yet fetched. Works
 * for the shop's game and for the public proof alike. The due time is the server's `expectedAt`,
 * read on this device's clock.
 */
export function awaitedRound(game: { status: GameStatus; beacon: GameBeacon | null }): BeaconWait | null {
  const beacon = game.beacon;
  if (game.status !== 'drawing' || !beacon || beacon.round === null || beacon.signature !== null) return null;
  const dueAt = beacon.expectedAt === null ? Number.NaN : Date.parse(beacon.expectedAt);
  return { round: beacon.round, dueAt, unreachable: false, error: null };
}

/**
 * How long to wait before asking for the draw again, after `inARow` answers in a row that were not
 * the draw (202, or a failure): the first time what the server said (`retryAfterMs`: when R is
 * due), then 1 s, 2 s, 4 s, 8 s and 10 s from then on, never less than the server asks.
 */
export function nextAskDelayMs(retryAfterMs: number, inARow: number): number {
  const asked = Math.max(0, retryAfterMs);
  const backoff = inARow <= 1 ? 0 : 1_000 * 2 ** (inARow - 2);
  return Math.min(MAX_ASK_DELAY_MS, Math.max(asked, backoff));
}

/** Whole seconds left until `dueAt` (rounded up, never below 0): "3", "2", "1", then "0". */
export function secondsLeft(dueAt: number, now: number): number {
  if (!Number.isFinite(dueAt)) return 0;
  return Math.max(0, Math.ceil((dueAt - now) / 1_000));
}

/** The seconds left until `dueAt`, ticking while it is set (null when not waiting). */
export function useSecondsLeft(dueAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (dueAt === null) return;
    // Four times a second, so each second changes on time.
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [dueAt]);
  return dueAt === null ? null : secondsLeft(dueAt, now);
}
