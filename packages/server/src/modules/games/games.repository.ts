import { and, desc, eq } from 'drizzle-orm';
import type { DrawPrize } from '@lot/domain/draw';
import type { Participant } from '@lot/domain/game';
import type { Db } from '../../db/client.ts';
import { gameRounds } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';

/** A game's row and the readers of its JSON columns, shared by the games service and the sales history. */
export type Prize = DrawPrize & { name: string };
export type StoredDraw = { number: number; drawnAt: string };
export type Round = typeof gameRounds.$inferSelect;

export const prizesOf = (round: Round) => round.prizes as Prize[];
export const entriesOf = (round: Round) => round.entries as Participant[];
export const drawsOf = (round: Round) => round.draws as StoredDraw[];

/** The settled game behind a sales-history record the old client posts (compatibility path). */
export async function settledRoundOf(
  db: Db,
  caller: Caller,
  gameId: number | undefined,
): Promise<{ saleId: number; entries: Participant[]; drawn: number[]; prizes: Prize[] } | undefined> {
  const [round] = await db
    .select()
    .from(gameRounds)
    .where(
      and(
        eq(gameRounds.userId, caller.id),
        eq(gameRounds.status, 'settled'),
        gameId === undefined ? undefined : eq(gameRounds.id, gameId),
      ),
    )
    .orderBy(desc(gameRounds.endedAt), desc(gameRounds.id))
    .limit(1);
  if (!round || round.saleId === null) return undefined;
  return {
    saleId: round.saleId,
    entries: entriesOf(round),
    drawn: drawsOf(round).map((d) => d.number),
    prizes: prizesOf(round),
  };
}
