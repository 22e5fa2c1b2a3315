import { sql } from 'drizzle-orm';
import { gameLogLeafBytes, type GameLogEvent, type GameLogLeaf } from '@lot/domain/game-log';
import { appendedNodes, leafHash, rootAt, rootRefs, type HashAt } from '@lot/domain/tlog/merkle';
import { queryRows, type Db, type Tx } from '../db/client.ts';

/**
 * The game log (docs/lot-draw-2.md#the-game-log, decision 081): one public append-only Merkle tree
 * (RFC 6962) per deployment, one leaf per game event, appended in the event's own transaction by the module that writes the
 * event (games, users).
 * The tree is kept incrementally: an append reads the head's right edge, writes the leaf's hash and
 * the hashes of the subtrees it completes, and moves the head on — O(log n), whatever the size.
 */

/**
 * An append, planned from the head alone: the leaf's hash and each subtree it completes. The left
 * siblings it reads are the edge's smallest subtrees (the size's trailing one bits), so nothing
 * else is read; the new edge keeps the rest and ends with the largest subtree the leaf closed.
 */
export function planAppend(head: LogHead, data: Uint8Array): { nodes: LogNode[]; head: LogHead } {
  const { edge } = head;
  const fromEdge: HashAt = (level) => {
    const hash = edge[edge.length - 1 - level];
    if (!hash) throw new Error('the game log edge is shorter than its size says');
    return hash;
  };
  const nodes = appendedNodes(head.size, leafHash(data), fromEdge).map(({ level, index, hash }) => ({
    level,
    idx: index,
    hash,
  }));
  const closed = nodes.at(-1)!;
  return {
    nodes,
    head: { size: head.size + 1, edge: [...edge.slice(0, edge.length - (nodes.length - 1)), closed.hash] },
  };
}

/** The tree's root from its right edge: the edge is exactly the subtrees the root folds. */
export function rootOf(head: LogHead): Uint8Array {
  const refs = rootRefs(head.size);
  const at = new Map(refs.map((ref, i) => [`${ref.level}/${ref.index}`, head.edge[i]]));
  return rootAt(head.size, (level, index) => {
    const hash = at.get(`${level}/${index}`);
    if (!hash) throw new Error('the game log edge does not match its size');
    return hash;
  });
}

/**
 * Appends the event's leaves, in order: call it inside the event's transaction, after the event's
 * own writes (the log's head is always the last lock a transaction takes, so no two transactions
 * wait on each other). Answers the first leaf's index.
 */
export async function appendGameLeaves(tx: Tx, gameId: number, leaves: readonly GameLogLeaf[]): Promise<number> {
  return (await appendFrom(tx, await lockLogHead(tx), gameId, leaves)).first;
}

/**
 * A witnessed freeze's leaf (decision 080), as `appendGameLeaves`, unless the log is forked: then
 * nothing is appended and the fork's cause is answered. Also answers the head the append left, from
 * which the checkpoint the witnesses get is signed without reading it back (decision 093).
 */
export async function appendUnlessForked(
  tx: Tx,
  gameId: number,
  leaf: GameLogLeaf,
): Promise<{ first: number; head: LogHead } | { forked: string }> {
  const head = await lockLogHead(tx);
  if (head.forked !== null) return { forked: head.forked };
  return appendFrom(tx, head, gameId, [leaf]);
}

async function appendFrom(
  tx: Tx,
  from: LogHead,
  gameId: number,
  leaves: readonly GameLogLeaf[],
): Promise<{ first: number; head: LogHead }> {
  let head: LogHead = { size: from.size, edge: from.edge };
  for (const leaf of leaves) {
    const data = gameLogLeafBytes(leaf);
    const planned = planAppend(head, data);
    await writeLogAppend(tx, { idx: head.size, gameId, kind: leaf.event, data, ...planned });
    head = planned.head;
  }
  return { first: from.size, head };
}

/** Every hash of the log is SHA-256: 32 bytes. */
export const HASH_BYTES = 32;

/** The log's head: its size and right edge (the perfect subtrees' hashes, largest first). */
export type LogHead = { size: number; edge: Uint8Array[] };

/** One stored hash: the node at `level` (0: a leaf) and index `idx` among that level's nodes. */
export type LogNode = { level: number; idx: number; hash: Uint8Array };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (value: Uint8Array | string): Uint8Array =>
  typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : new Uint8Array(value);

export function edgeOf(stored: Uint8Array): Uint8Array[] {
  const edge: Uint8Array[] = [];
  for (let at = 0; at < stored.length; at += HASH_BYTES) edge.push(stored.subarray(at, at + HASH_BYTES));
  return edge;
}

type HeadRow = { size: string | number; edge: Uint8Array | string };
const toHead = (row: HeadRow): LogHead => ({ size: Number(row.size), edge: edgeOf(bytesOf(row.edge)) });

/**
 * The head, locked until the transaction ends: the one place appends from every process queue
 * (decision 081). Every transaction that appends takes it last, after its game's own locks. With
 * it, why freezes are refused if a witness said the log forked (decision 080), else null.
 */
export async function lockLogHead(tx: Tx): Promise<LogHead & { forked: string | null }> {
  const [row] = await queryRows<HeadRow & { forked_reason: string | null }>(
    tx,
    sql`SELECT size, edge, CASE WHEN forked_at IS NULL THEN NULL ELSE forked_reason END AS forked_reason
      FROM game_log WHERE id = 1 FOR UPDATE`,
  );
  if (!row) throw new Error('the game log has no head row');
  return { ...toHead(row), forked: row.forked_reason };
}

/** What one append writes: the leaf, its new nodes, the new head (under `lockLogHead`'s lock). */
export type LogAppend = {
  idx: number;
  gameId: number;
  kind: GameLogEvent;
  data: Uint8Array;
  nodes: LogNode[];
  head: LogHead;
};

/** One statement: the leaf, its hashes, the head moved on (only from the size it was locked at). */
export async function writeLogAppend(tx: Tx, append: LogAppend): Promise<void> {
  const nodes = JSON.stringify(append.nodes.map((n) => ({ level: n.level, idx: n.idx, hash: hex(n.hash) })));
  const edge = append.head.edge.map(hex).join('');
  const rows = await queryRows<{ size: string | number }>(
    tx,
    sql`WITH entry AS (
        INSERT INTO game_log_entries (idx, game_id, kind, data)
        VALUES (${append.idx}::bigint, ${append.gameId}::int, ${append.kind}::text, decode(${hex(append.data)}::text, 'hex'))
      ),
      nodes AS (
        INSERT INTO game_log_hashes (level, idx, hash)
        SELECT n.level, n.idx, decode(n.hash, 'hex')
        FROM jsonb_to_recordset(${nodes}::jsonb) AS n(level int, idx bigint, hash text)
      )
      UPDATE game_log SET size = ${append.head.size}::bigint, edge = decode(${edge}::text, 'hex'), updated_at = now()
      WHERE id = 1 AND size = ${append.idx}::bigint
      RETURNING size`,
  );
  if (rows.length !== 1) throw new Error('the game log moved under its lock');
}

/** A freeze leaf that did not stand (decision 080): it stays in the log, marked. */
export async function markAttempt(db: Db | Tx, idx: number): Promise<void> {
  await db.execute(sql`UPDATE game_log_entries SET attempt = true WHERE idx = ${idx}::bigint`);
}

/** Why freezes are refused, if a witness said the log is not the one it saw (decision 080). */
export async function logFork(db: Db | Tx): Promise<{ at: Date; reason: string } | null> {
  const [row] = await queryRows<{ forked_at: Date | string | null; forked_reason: string | null }>(
    db,
    sql`SELECT forked_at, forked_reason FROM game_log WHERE id = 1`,
  );
  return row?.forked_at && row.forked_reason ? { at: new Date(row.forked_at), reason: row.forked_reason } : null;
}

/** Records the first fork's cause; every freeze is refused from now on, until a new origin. */
export async function recordLogFork(db: Db | Tx, reason: string): Promise<void> {
  await db.execute(
    sql`UPDATE game_log SET forked_at = now(), forked_reason = ${reason}::text WHERE id = 1 AND forked_at IS NULL`,
  );
}
