import { outcomeDigest, type EndedLeaf, type GameLogLeaf } from '@lot/domain/game-log';
import type { AppContext } from '../../lib/context.ts';
import { appendGameLeaves } from '../../lib/game-log.ts';
import { runWitnessedFreeze } from './witnessed-freeze.ts';
import { seedHex } from './game-view.ts';
import { runDraw, type DrawAnswer, type DrawWrite } from './draw.repository.ts';
import { beaconOf, runVoid, type Round, type VoidWrite } from './games.repository.ts';

/**
 * What a game's events write into the game log (docs/lot-draw-2.md#the-game-log, decision 081):
 * the leaves are planned before the event's transaction, from what the event writes, and appended
 * in it.
 */

/** The end of a game: its outcome's hash and its seed, revealed now. */
export async function endedLeaf(
  ctx: Pick<AppContext, 'seeds' | 'drawCrypto'>,
  round: Round,
  event: EndedLeaf['event'],
  drawn: readonly number[],
): Promise<EndedLeaf> {
  return {
    event,
    code: round.code,
    outcome: await outcomeDigest(event, drawn, ctx.drawCrypto),
    seed: seedHex(round, ctx.seeds),
  };
}

/** A draw's leaves: its freeze, its settlement (a LOT-DRAW-1 game's first draw may do both). */
export async function drawLeaves(
  ctx: Pick<AppContext, 'seeds' | 'drawCrypto'>,
  round: Round,
  write: DrawWrite,
): Promise<GameLogLeaf[]> {
  const leaves: GameLogLeaf[] = [];
  if (write.freeze) {
    leaves.push({
      event: 'frozen',
      code: round.code,
      entriesDigest: write.digest,
      // L, the latest public round at the freeze (decision 076): `-` on a LOT-DRAW-1 game.
      latestRound: write.freeze.latestRound,
      round: write.freeze.beaconRound,
      chain: beaconOf(round)?.chainHash ?? null,
      frozenAt: write.freeze.at.toISOString(),
    });
  }
  if (write.settlement) leaves.push(await endedLeaf(ctx, round, 'settled', write.settlement.sale.numbers));
  return leaves;
}

/**
 * The draw's statement; a freeze or a settlement also appends its leaves to the game log in the
 * same transaction (decision 081), only when the statement wrote: no event without its leaf, no
 * leaf without its event. A draw in between is the statement alone.
 */
export async function runDrawLogged(ctx: AppContext, round: Round, write: DrawWrite): Promise<DrawAnswer | undefined> {
  const leaves = await drawLeaves(ctx, round, write);
  if (leaves.length === 0) return runDraw(ctx.db, write);
  // A LOT-DRAW-2 freeze with witnesses stands only once they cosigned it (decision 080).
  const [first] = leaves;
  const pin = beaconOf(round);
  if (ctx.witnesses.list.length > 0 && pin && first?.event === 'frozen' && leaves.length === 1)
    return runWitnessedFreeze(ctx, round, write, first, pin);
  return ctx.db.transaction(async (tx) => {
    const answer = await runDraw(tx, write);
    if (answer?.drawn) await appendGameLeaves(tx, round.id, leaves);
    return answer;
  });
}

/** The void's statement and its leaf in the game log, in one transaction (decision 081). */
export function runVoidLogged(ctx: AppContext, gameId: number, leaf: GameLogLeaf, write: VoidWrite): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const done = await runVoid(tx, write);
    if (done) await appendGameLeaves(tx, gameId, [leaf]);
    return done;
  });
}
