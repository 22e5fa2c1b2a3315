import type { GameLogEvidence } from '@lot/domain/schemas/games';
import { base64Encode } from '@lot/domain/tlog/encoding';
import { inclusionProof, inclusionProofRefs } from '@lot/domain/tlog/merkle';
import type { AppContext } from '../../lib/context.ts';
import { rootOf } from '../../lib/game-log.ts';
import { gameLogLeavesOf, readLogHead, readLogNodes } from './log.repository.ts';

/**
 * What a game's public proof shows of the game log (docs/lot-draw-2.md#checking-the-game-log): reads
 * only, for the games module's proof builder (a module reads another's pieces, never its service).
 */

/**
 * A game's freeze in the log: the `frozen` leaf's index and text, a checkpoint signed by the log's
 * key, and the leaf's inclusion proof in that checkpoint's tree, from the stored hashes (one
 * query). Null for a game with no `frozen` leaf (open, or frozen before the log existed).
 */
export async function freezeEvidence(
  ctx: Pick<AppContext, 'db' | 'gameLog'>,
  gameId: number,
): Promise<GameLogEvidence | null> {
  const leaf = (await gameLogLeavesOf(ctx.db, gameId)).find((l) => l.kind === 'frozen');
  if (!leaf) return null;
  const head = await readLogHead(ctx.db);
  const checkpoint = ctx.gameLog.signCheckpoint(head.size, rootOf(head));
  const stored = await readLogNodes(ctx.db, inclusionProofRefs(leaf.idx, head.size).flat());
  const inclusion = inclusionProof(leaf.idx, head.size, (level, index) => {
    const hash = stored.get(`${level}/${index}`);
    if (!hash) throw new Error(`the game log lacks its node ${level}/${index}`);
    return hash;
  });
  return {
    origin: ctx.gameLog.origin,
    freeze: {
      index: leaf.idx,
      data: new TextDecoder().decode(leaf.data),
      inclusion: inclusion.map(base64Encode),
      checkpoint,
    },
  };
}
