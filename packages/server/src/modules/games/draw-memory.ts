import type { AppContext } from '../../lib/context.ts';
import { beaconOf, drawsOf, prizesOf, type RoundRow } from './games.repository.ts';

/**
 * The draw's memory (decision 052): `ctx.games` keeps, per game id, a drawing game as this process
 * last read or wrote it, so its next draw skips the read. It is never the truth: the draw's
 * statement holds the conditions, and a game it finds moved is forgotten and read again.
 */

declare module '../../lib/context.ts' {
  /** What the memory keeps: the game's row as the games' reads answer it. */
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type -- an interface, so this module can fill in lib/'s slot
  interface RememberedGame extends RoundRow {}
}

/** Keeps a game that draws; forgets one that ended (or was voided) here. */
export function rememberDrawing(ctx: AppContext, row: RoundRow): void {
  if (row.round.status === 'drawing') ctx.games.set(row.round.id, row);
  else ctx.games.delete(row.round.id);
}

/** Forgets a game: another process moved it, or this one is about to. */
export function forgetGame(ctx: AppContext, id: number): void {
  ctx.games.delete(id);
}

/**
 * The remembered game, only when the next draw can be written from it alone: it draws, the
 * position is the next one, and (LOT-DRAW-2) round R is stored. Anything else — a replay, an
 * error to answer, a beacon to wait for — is decided on a read.
 */
export function rememberedFor(ctx: AppContext, id: number, position: number): RoundRow | undefined {
  const row = ctx.games.get(id);
  if (!row) return undefined;
  const { round } = row;
  const usable =
    round.status === 'drawing' &&
    position === drawsOf(round).length + 1 &&
    drawsOf(round).length < prizesOf(round).length &&
    (beaconOf(round) === null || round.beaconRandomness !== null);
  return usable ? row : undefined;
}
