import type { GameLogEvidence } from '@lot/domain/schemas/games';
import { parseCheckpoint } from '@lot/domain/tlog/checkpoint';
import { base64Encode } from '@lot/domain/tlog/encoding';
import {
  consistencyProof,
  consistencyProofRefs,
  inclusionProof,
  inclusionProofRefs,
  type HashAt,
  type NodeRef,
} from '@lot/domain/tlog/merkle';
import { parseNote } from '@lot/domain/tlog/note';
import type { AppContext } from '../../lib/context.ts';
import { rootOf } from '../../lib/game-log.ts';
import { gameLogLeavesOf, readLogHead, readLogNodes } from './log.repository.ts';

/**
 * What a game's public proof shows of the game log (docs/lot-draw-2.md#checking-the-game-log): reads
 * only, for the games module's proof builder (a module reads another's pieces, never its service).
 */

/**
 * A game's freeze in the log: the `frozen` leaf that stood (decision 080: not an attempt), its
 * index and text, a checkpoint that holds it, and the leaf's inclusion proof in that checkpoint's
 * tree, from the stored hashes (one query). The checkpoint is the one the witnesses cosigned at a
 * witnessed freeze (kept with the game); otherwise the log's latest, signed now. Null for a game
 * with no `frozen` leaf (open, or frozen before the log existed).
 */
export async function freezeEvidence(
  ctx: Pick<AppContext, 'db' | 'gameLog'>,
  game: { id: number; logIndex: number | null; logCheckpoint: string | null },
): Promise<GameLogEvidence | null> {
  const frozen = (await gameLogLeavesOf(ctx.db, game.id)).filter((l) => l.kind === 'frozen');
  const leaf = game.logIndex === null ? frozen.find((l) => !l.attempt) : frozen.find((l) => l.idx === game.logIndex);
  if (!leaf) return null;
  let size: number;
  let checkpoint: string;
  let origin = ctx.gameLog.origin;
  if (game.logIndex !== null && game.logCheckpoint !== null) {
    checkpoint = game.logCheckpoint;
    ({ size, origin } = parseCheckpoint(parseNote(checkpoint).text));
  } else {
    const head = await readLogHead(ctx.db);
    size = head.size;
    checkpoint = ctx.gameLog.signCheckpoint(head.size, rootOf(head));
  }
  const inclusion = inclusionProof(leaf.idx, size, await storedNodes(ctx.db, inclusionProofRefs(leaf.idx, size)));
  return {
    origin,
    freeze: {
      index: leaf.idx,
      data: new TextDecoder().decode(leaf.data),
      inclusion: inclusion.map(base64Encode),
      checkpoint,
    },
  };
}

/** The consistency proof from `oldSize` to `newSize` (RFC 9162) a witness asks for, from the stored hashes. */
export async function consistencyProofOf(
  db: AppContext['db'],
  oldSize: number,
  newSize: number,
): Promise<Uint8Array[]> {
  return consistencyProof(oldSize, newSize, await storedNodes(db, consistencyProofRefs(oldSize, newSize)));
}

/** The stored subtrees a proof needs, read in one query, as the proof functions read them. */
async function storedNodes(db: AppContext['db'], refs: readonly (readonly NodeRef[])[]): Promise<HashAt> {
  const stored = await readLogNodes(db, refs.flat());
  return (level, index) => {
    const hash = stored.get(`${level}/${index}`);
    if (!hash) throw new Error(`the game log lacks its node ${level}/${index}`);
    return hash;
  };
}
