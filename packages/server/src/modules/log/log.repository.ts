import { and, asc, between, eq, sql } from 'drizzle-orm';
import type { GameLogEvent } from '@lot/domain/game-log';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { gameLog, gameLogEntries, gameLogHashes } from '../../db/schema.ts';

/** Every hash of the log is SHA-256: 32 bytes. */
export const HASH_BYTES = 32;

/** The log's head: its size and right edge (the perfect subtrees' hashes, largest first). */
export type LogHead = { size: number; edge: Uint8Array[] };

/** One stored hash: the node at `level` (0: a leaf) and index `idx` among that level's nodes. */
export type LogNode = { level: number; idx: number; hash: Uint8Array };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (value: Uint8Array | string): Uint8Array =>
  typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : new Uint8Array(value);

function edgeOf(stored: Uint8Array): Uint8Array[] {
  const edge: Uint8Array[] = [];
  for (let at = 0; at < stored.length; at += HASH_BYTES) edge.push(stored.subarray(at, at + HASH_BYTES));
  return edge;
}

type HeadRow = { size: string | number; edge: Uint8Array | string };
const toHead = (row: HeadRow): LogHead => ({ size: Number(row.size), edge: edgeOf(bytesOf(row.edge)) });

/**
 * The head, locked until the transaction ends: the one place appends from every process queue
 * (decision 081). Every transaction that appends takes it last, after its game's own locks.
 */
export async function lockLogHead(tx: Tx): Promise<LogHead> {
  const [row] = await queryRows<HeadRow>(tx, sql`SELECT size, edge FROM game_log WHERE id = 1 FOR UPDATE`);
  if (!row) throw new Error('the game log has no head row');
  return toHead(row);
}

/** The head as last committed, without a lock (a checkpoint, the tiles). */
export async function readLogHead(db: Db | Tx): Promise<LogHead & { origin: string | null; vkey: string | null }> {
  const [row] = await db.select().from(gameLog).where(eq(gameLog.id, 1));
  if (!row) throw new Error('the game log has no head row');
  return { size: row.size, edge: edgeOf(row.edge), origin: row.origin, vkey: row.vkey };
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

/** `count` consecutive stored hashes at one level from `from`, in order (fewer when not all exist). */
export async function readLogHashes(db: Db, level: number, from: number, count: number): Promise<Uint8Array[]> {
  const rows = await db
    .select({ hash: gameLogHashes.hash })
    .from(gameLogHashes)
    .where(and(eq(gameLogHashes.level, level), between(gameLogHashes.idx, from, from + count - 1)))
    .orderBy(asc(gameLogHashes.idx));
  return rows.map((row) => new Uint8Array(row.hash));
}

/** One stored hash, if the log has that node. */
export async function readLogHash(db: Db | Tx, level: number, idx: number): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ hash: gameLogHashes.hash })
    .from(gameLogHashes)
    .where(and(eq(gameLogHashes.level, level), eq(gameLogHashes.idx, idx)));
  return row && new Uint8Array(row.hash);
}

/** `count` consecutive leaves' data from `from`, in order (fewer when not all exist). */
export async function readLogEntries(db: Db, from: number, count: number): Promise<Uint8Array[]> {
  const rows = await db
    .select({ data: gameLogEntries.data })
    .from(gameLogEntries)
    .where(between(gameLogEntries.idx, from, from + count - 1))
    .orderBy(asc(gameLogEntries.idx));
  return rows.map((row) => new Uint8Array(row.data));
}

/** The leaves of one game, in order: their index, event and data. */
export async function gameLogLeavesOf(
  db: Db | Tx,
  gameId: number,
): Promise<{ idx: number; kind: GameLogEvent; data: Uint8Array }[]> {
  const rows = await db
    .select({ idx: gameLogEntries.idx, kind: gameLogEntries.kind, data: gameLogEntries.data })
    .from(gameLogEntries)
    .where(eq(gameLogEntries.gameId, gameId))
    .orderBy(asc(gameLogEntries.idx));
  return rows.map((row) => ({ ...row, data: new Uint8Array(row.data) }));
}

/** Names the log: the origin and verifier key it is served under from now on. */
export async function nameLog(db: Db | Tx, origin: string, vkey: string): Promise<void> {
  await db.update(gameLog).set({ origin, vkey }).where(eq(gameLog.id, 1));
}
