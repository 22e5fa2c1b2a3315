import { gameLogLeafBytes, type GameLogLeaf } from '@lot/domain/game-log';
import { AppError } from '@lot/domain/errors';
import { emptyRoot, leafHash, nodeHash } from '@lot/domain/tlog/merkle';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { AppContext } from '../../lib/context.ts';
import type { GameLogSigner } from '../../lib/game-log-signer.ts';
import { KeyMismatch } from '../../lib/key-canaries.ts';
import {
  lockLogHead,
  nameLog,
  readLogEntries,
  readLogHashes,
  readLogHead,
  writeLogAppend,
  type LogHead,
  type LogNode,
} from './log.repository.ts';

/**
 * The game log (docs/lot-draw-2.md#the-game-log, decision 081): one public append-only Merkle tree
 * (RFC 6962) per deployment, one leaf per game event, appended in the event's own transaction.
 * The tree is kept incrementally: an append reads the head's right edge, writes the leaf's hash and
 * the hashes of the subtrees it completes, and moves the head on — O(log n), whatever the size.
 */

/**
 * An append, planned from the head alone: leaf `size`'s hash, then each subtree it completes
 * (while the index is odd, its left sibling is the edge's last hash), and the new edge.
 */
export function planAppend(head: LogHead, data: Uint8Array): { nodes: LogNode[]; head: LogHead } {
  const edge = [...head.edge];
  let hash = leafHash(data);
  let idx = head.size;
  let level = 0;
  const nodes: LogNode[] = [{ level, idx, hash }];
  while (idx % 2 === 1) {
    const left = edge.pop();
    if (!left) throw new Error('the game log edge is shorter than its size says');
    hash = nodeHash(left, hash);
    idx = (idx - 1) / 2;
    level += 1;
    nodes.push({ level, idx, hash });
  }
  edge.push(hash);
  return { nodes, head: { size: head.size + 1, edge } };
}

/** The tree's root hash from its right edge, folded from the smallest subtree up. */
export function rootOf(head: LogHead): Uint8Array {
  const [last, ...rest] = [...head.edge].reverse();
  if (!last) return emptyRoot();
  return rest.reduce((right, left) => nodeHash(left, right), last);
}

/**
 * Appends the event's leaves, in order: call it inside the event's transaction, after the event's
 * own writes (the log's head is always the last lock a transaction takes, so no two transactions
 * wait on each other). Answers the first leaf's index.
 */
export async function appendGameLeaves(tx: Tx, gameId: number, leaves: readonly GameLogLeaf[]): Promise<number> {
  let head = await lockLogHead(tx);
  const first = head.size;
  for (const leaf of leaves) {
    const data = gameLogLeafBytes(leaf);
    const planned = planAppend(head, data);
    await writeLogAppend(tx, { idx: head.size, gameId, kind: leaf.event, data, ...planned });
    head = planned.head;
  }
  return first;
}

/** The public key part of a verifier key (`<name>+<key ID>+<base64 key>`): its name follows the origin. */
const publicKeyOf = (vkey: string) => vkey.split('+').at(-1);

/**
 * Names the log at start-up (decision 081): the first start keeps its origin and verifier key; a
 * log signed with another key is refused (the server never continues a log it cannot sign as
 * before); a new origin, set on purpose, is recorded in the audit trail with the size the log had.
 */
export async function openGameLog(db: Db, signer: Pick<GameLogSigner, 'origin' | 'vkey'>): Promise<void> {
  const head = await readLogHead(db);
  if (head.vkey !== null && publicKeyOf(head.vkey) !== publicKeyOf(signer.vkey)) throw new KeyMismatch('log-key');
  if (head.vkey === signer.vkey && head.origin === signer.origin) return;
  await db.transaction(async (tx) => {
    await nameLog(tx, signer.origin, signer.vkey);
    if (head.origin !== null && head.origin !== signer.origin)
      await recordAudit(tx, {
        actorId: null,
        address: null,
        action: 'log.origin_changed',
        details: { from: head.origin, to: signer.origin, size: head.size },
      });
  });
}

/** The log's current checkpoint (C2SP tlog-checkpoint), signed as a C2SP signed note. */
export async function currentCheckpoint(ctx: Pick<AppContext, 'db' | 'gameLog'>): Promise<string> {
  const head = await readLogHead(ctx.db);
  return ctx.gameLog.signCheckpoint(head.size, rootOf(head));
}

/** A full tile or entry bundle holds 256 hashes or entries. */
export const TILE_WIDTH = 256;

/** Where a tile is: `level` (null for an entry bundle), its index, and — partial — its width. */
export type TilePath = { level: number | null; index: number; width: number };

/**
 * A tile's bytes (C2SP tlog-tiles): the hashes at height 8·level, or the leaves' data each prefixed
 * with its length as a big-endian uint16. 404 unless the log holds every hash or entry it names:
 * nothing is served that the log has not reached.
 */
export async function readTile(ctx: Pick<AppContext, 'db'>, tile: TilePath): Promise<Uint8Array> {
  const from = tile.index * TILE_WIDTH;
  if (tile.level === null) {
    const entries = await readLogEntries(ctx.db, from, tile.width);
    if (entries.length !== tile.width) throw new AppError('NOT_FOUND', 'The game log has no such entry bundle yet');
    return Buffer.concat(
      entries.flatMap((data) => [Buffer.from([data.length >> 8, data.length & 0xff]), Buffer.from(data)]),
    );
  }
  const hashes = await readLogHashes(ctx.db, tile.level * 8, from, tile.width);
  if (hashes.length !== tile.width) throw new AppError('NOT_FOUND', 'The game log has no such tile yet');
  return Buffer.concat(hashes);
}
