import { AppError } from '@lot/domain/errors';
import type { Participant } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { noParticipantNumber, SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { SlipPrint, SlipPrintInput } from '@lot/domain/schemas/games';
import type { Context } from '../../lib/context.ts';
import { countSlipPrint, findSlipRound, slipPrintsOf, type SlipPrintRow } from './games.repository.ts';
import { getGame } from './games.service.ts';

/**
 * Slip print counts (docs/product/game.md#slips, decision 014): the server counts every print, so a
 * second print of the same slip says COPY with its count, whichever device printed it.
 */

const toSlip = (row: Pick<SlipPrintRow, 'kind' | 'number' | 'printCount' | 'lastPrintedAt'>): SlipPrint => ({
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
export async function printSlip(ctx: Context, id: number, input: SlipPrintInput): Promise<SlipPrint> {
  const round = await findSlipRound(ctx.db, ctx.caller.id, id);
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  if (round.status === 'discarded') throw new AppError('CONFLICT', SERVER_MESSAGES.slipsOfDiscardedGame);
  if (input.kind === 'result' && round.status !== 'settled' && round.status !== 'voided') {
    throw new AppError('CONFLICT', SERVER_MESSAGES.resultSlipNotYet);
  }
  if (input.kind === 'entry' && !(round.entries as Participant[]).some((e) => e.number === input.number)) {
    throw AppError.field('number', noParticipantNumber(input.number));
  }
  return toSlip(await countSlipPrint(ctx.db, { gameId: id, kind: input.kind, number: input.number ?? 0 }));
}

/** The print counts of a game's slips (whoever may read the game), entry slips by number, then the result. */
export async function listSlips(ctx: Context, id: number): Promise<SlipPrint[]> {
  await getGame(ctx, id);
  return (await slipPrintsOf(ctx.db, id)).map(toSlip);
}
