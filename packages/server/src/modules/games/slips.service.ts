import { and, asc, eq, sql } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import type { Participant } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import type { SlipPrint, SlipPrintInput } from '@lot/domain/schemas/games';
import type { Db } from '../../db/client.ts';
import { gameRounds, slipPrints } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { getGame, type GamesContext } from './games.service.ts';

/**
 * Slip print counts (docs/product/game.md#slips, decision 014): the server counts every print, so a
 * second print of the same slip says COPY with its count, whichever device printed it.
 */

type Row = typeof slipPrints.$inferSelect;

const toSlip = (row: Pick<Row, 'kind' | 'number' | 'printCount' | 'lastPrintedAt'>): SlipPrint => ({
  kind: row.kind,
  number: row.kind === 'result' ? null : row.number,
  printCount: row.printCount,
  copy: row.printCount > 1,
  lastPrintedAt: row.lastPrintedAt.toISOString(),
});

/**
 * Counts one print of a slip of the caller's own game and answers the count with it. An entry slip
 * names a participant of the game; the result slip exists once the game is settled or voided. The
 * count goes up in one statement (INSERT … ON CONFLICT DO UPDATE), so concurrent prints are each
 * counted exactly once.
 */
export async function printSlip(db: Db, caller: Caller, id: number, input: SlipPrintInput): Promise<SlipPrint> {
  const [round] = await db
    .select({ status: gameRounds.status, entries: gameRounds.entries })
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), eq(gameRounds.userId, caller.id)));
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  if (round.status === 'discarded') throw new AppError('CONFLICT', 'This game was discarded: it has no slips');
  if (input.kind === 'result' && round.status !== 'settled' && round.status !== 'voided') {
    throw new AppError('CONFLICT', 'The result slip is printed once the game is settled or voided');
  }
  if (input.kind === 'entry' && !(round.entries as Participant[]).some((e) => e.number === input.number)) {
    throw AppError.field('number', `No participant has number ${input.number} in this game`);
  }
  const [row] = await db
    .insert(slipPrints)
    .values({ gameId: id, kind: input.kind, number: input.number ?? 0, printCount: 1 })
    .onConflictDoUpdate({
      target: [slipPrints.gameId, slipPrints.kind, slipPrints.number],
      set: { printCount: sql`${slipPrints.printCount} + 1`, lastPrintedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('slip print upsert returned no row');
  return toSlip(row);
}

/** The print counts of a game's slips (whoever may read the game), entry slips by number, then the result. */
export async function listSlips(ctx: GamesContext, caller: Caller, id: number): Promise<SlipPrint[]> {
  await getGame(ctx, caller, id);
  const rows = await ctx.db
    .select()
    .from(slipPrints)
    .where(eq(slipPrints.gameId, id))
    .orderBy(asc(slipPrints.kind), asc(slipPrints.number));
  return rows.map(toSlip);
}
