import { and, asc, between, eq, or } from 'drizzle-orm';
import type { NodeRef } from '@lot/domain/tlog/merkle';
import type { GameLogEvent } from '@lot/domain/game-log';
import type { Db, Tx } from '../../db/client.ts';
import { edgeOf, type LogHead } from '../../lib/game-log.ts';
import { gameLog, gameLogEntries, gameLogHashes } from '../../db/schema.ts';

export type { Db };

/** The head as last committed, without a lock (a checkpoint, the tiles). */
export async function readLogHead(db: Db | Tx): Promise<LogHead & { origin: string | null; vkey: string | null }> {
  const [row] = await db.select().from(gameLog).where(eq(gameLog.id, 1));
  if (!row) throw new Error('the game log has no head row');
  return { size: row.size, edge: edgeOf(row.edge), origin: row.origin, vkey: row.vkey };
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

/** The leaves of one game, in order: their index, event, data, and whether it is a freeze that did not stand. */
export async function gameLogLeavesOf(
  db: Db | Tx,
  gameId: number,
): Promise<{ idx: number; kind: GameLogEvent; data: Uint8Array; attempt: boolean }[]> {
  const rows = await db
    .select({
      idx: gameLogEntries.idx,
      kind: gameLogEntries.kind,
      data: gameLogEntries.data,
      attempt: gameLogEntries.attempt,
    })
    .from(gameLogEntries)
    .where(eq(gameLogEntries.gameId, gameId))
    .orderBy(asc(gameLogEntries.idx));
  return rows.map((row) => ({ ...row, data: new Uint8Array(row.data) }));
}

/** Names the log: the origin and verifier key it is served under from now on. */
export async function nameLog(db: Db | Tx, origin: string, vkey: string, newLog: boolean): Promise<void> {
  // A new origin is a new log for its witnesses (decision 080): a fork of the old one no longer refuses freezes.
  await db
    .update(gameLog)
    .set({ origin, vkey, ...(newLog && { forkedAt: null, forkedReason: null }) })
    .where(eq(gameLog.id, 1));
}

/** The stored hashes of these complete subtrees, keyed `level/index` (one query; absent ones left out). */
export async function readLogNodes(db: Db | Tx, refs: readonly NodeRef[]): Promise<Map<string, Uint8Array>> {
  if (refs.length === 0) return new Map();
  const rows = await db
    .select({ level: gameLogHashes.level, idx: gameLogHashes.idx, hash: gameLogHashes.hash })
    .from(gameLogHashes)
    .where(or(...refs.map((ref) => and(eq(gameLogHashes.level, ref.level), eq(gameLogHashes.idx, ref.index)))));
  return new Map(rows.map((row) => [`${row.level}/${Number(row.idx)}`, new Uint8Array(row.hash)]));
}
