import { alias } from 'drizzle-orm/pg-core';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import type { Db, Tx } from '../../db/client.ts';
import { backupKeys, users } from '../../db/schema.ts';

/** The queries of backup keys (decision 041). */

const creator = alias(users, 'creator');
const revoker = alias(users, 'revoker');

const keyColumns = {
  id: backupKeys.id,
  name: backupKeys.name,
  hint: backupKeys.hint,
  createdAt: backupKeys.createdAt,
  createdById: backupKeys.createdBy,
  createdByUsername: creator.username,
  lastUsedAt: backupKeys.lastUsedAt,
  lastUsedAddress: backupKeys.lastUsedAddress,
  revokedAt: backupKeys.revokedAt,
  revokedById: backupKeys.revokedBy,
  revokedByUsername: revoker.username,
};

function selectKeys(db: Db | Tx) {
  return db
    .select(keyColumns)
    .from(backupKeys)
    .leftJoin(creator, eq(creator.id, backupKeys.createdBy))
    .leftJoin(revoker, eq(revoker.id, backupKeys.revokedBy));
}

export type BackupKeyRow = Awaited<ReturnType<ReturnType<typeof selectKeys>['execute']>>[number];

/** Every key: those still valid first, then the revoked; the newest first within each. */
export function listKeyRows(db: Db): Promise<BackupKeyRow[]> {
  return selectKeys(db).orderBy(
    asc(sql`${backupKeys.revokedAt} IS NOT NULL`),
    desc(backupKeys.createdAt),
    desc(backupKeys.id),
  );
}

export async function keyRow(db: Db | Tx, id: number): Promise<BackupKeyRow | undefined> {
  const [row] = await selectKeys(db).where(eq(backupKeys.id, id));
  return row;
}

export async function insertKey(
  tx: Tx,
  key: { name: string; keyHash: string; hint: string; createdBy: number },
): Promise<number> {
  const [row] = await tx.insert(backupKeys).values(key).returning({ id: backupKeys.id });
  if (!row) throw new Error('backup key insert returned no row');
  return row.id;
}

/** Revokes a key not yet revoked; undefined when there is none such (missing or revoked already). */
export async function revokeKeyRow(tx: Tx, id: number, by: number): Promise<{ name: string } | undefined> {
  const [row] = await tx
    .update(backupKeys)
    .set({ revokedAt: sql`now()`, revokedBy: by })
    .where(and(eq(backupKeys.id, id), isNull(backupKeys.revokedAt)))
    .returning({ name: backupKeys.name });
  return row;
}

/** The key not revoked whose hash this is. */
/** The key with this hash, revoked or not. */
export async function keyByHash(
  db: Db,
  keyHash: string,
): Promise<{ id: number; name: string; revoked: boolean } | undefined> {
  const [row] = await db
    .select({ id: backupKeys.id, name: backupKeys.name, revokedAt: backupKeys.revokedAt })
    .from(backupKeys)
    .where(eq(backupKeys.keyHash, keyHash));
  return row && { id: row.id, name: row.name, revoked: row.revokedAt !== null };
}

export async function markKeyUsed(tx: Tx, id: number, address: string | null): Promise<void> {
  await tx
    .update(backupKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedAddress: address })
    .where(eq(backupKeys.id, id));
}

/** The insert failed because another key has the name (the unique index on it). */
export const isNameTaken = (error: unknown): boolean => pgErrorCode(error) === UNIQUE_VIOLATION;
