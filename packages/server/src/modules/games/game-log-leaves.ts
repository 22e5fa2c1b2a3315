import { outcomeDigest, type EndedLeaf, type GameLogLeaf } from '@lot/domain/game-log';
import type { AppContext } from '../../lib/context.ts';
import { seedHex } from './game-view.ts';
import { beaconOf, type DrawWrite, type Round } from './games.repository.ts';

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
      // L, the latest public round at the freeze, is named by the freeze by evidence (issue 41
      // item 1, branch `evidence`): `-` until then.
      latestRound: null,
      round: write.freeze.beaconRound,
      chain: beaconOf(round)?.chainHash ?? null,
      frozenAt: write.freeze.at.toISOString(),
    });
  }
  if (write.settlement) leaves.push(await endedLeaf(ctx, round, 'settled', write.settlement.sale.numbers));
  return leaves;
}
