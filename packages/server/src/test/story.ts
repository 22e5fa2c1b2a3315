import { sql } from 'drizzle-orm';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import { drawPosition } from './game-fixtures.ts';
import { expectStatus } from './money-fixtures.ts';
import type { TestApp } from './test-app.ts';

/**
 * Pieces of the random "stories" the report tests tell (days of top-ups, transfers and games, each
 * moved to a chosen instant): a seeded generator, so a failure replays from the seed the test
 * prints, and the moves that place the story in time.
 */

/** Whole numbers from `min` to `max` (both included), the same sequence for the same seed. */
export function seededRandom(seed: number): (min: number, max: number) => number {
  let state = seed;
  return (min, max) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return min + (state % (max - min + 1));
  };
}

/** Moves the latest ledger row to the instant `at` (ms since the epoch). */
export async function lastTransactionAt(t: TestApp, at: number): Promise<void> {
  await t.database.db.execute(
    sql`UPDATE transactions SET created_at = ${new Date(at).toISOString()}::timestamptz
        WHERE id = (SELECT max(id) FROM transactions)`,
  );
}

/**
 * Draws the game through the API, one position after another, up to position `last` (a LOT-DRAW-2
 * game's wait for its beacon round passed by moving the test clock).
 */
export async function drawTo(t: TestApp, token: string, game: Game, last: number): Promise<Game> {
  let current = game;
  for (let position = current.draws.length + 1; position <= last; position++) {
    const drawn = await drawPosition(t, token, game.id, position);
    expectStatus(drawn, 200);
    current = drawn.json<DrawResult>().game;
  }
  return current;
}
