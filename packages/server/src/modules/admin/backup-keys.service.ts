import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import {
  BACKUP_KEY_PREFIX,
  type BackupKey,
  type CreateBackupKeyInput,
  type CreatedBackupKey,
  type RevokedBackupKey,
} from '@lot/domain/schemas/backup';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import {
  insertKey,
  isNameTaken,
  keyRow,
  keyByHash,
  listKeyRows,
  markKeyUsed,
  revokeKeyRow,
  type BackupKeyRow,
} from './backup-keys.repository.ts';

/**
 * Backup keys (decision 041, docs/product/runtime-and-security.md#backup-keys): an admin makes a
 * named key for `npm run backup` under cron; the key takes the backup and nothing else, every use
 * is an audit row, and a revoked key is refused.
 */

/** What is stored of a key: SHA-256 of all of it. The key is 256 random bits, so no salt or slow hash is needed. */
export const hashBackupKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The key's first characters, shown in the list to tell keys apart (24 of its 256 bits). */
const hintOf = (key: string) => key.slice(0, BACKUP_KEY_PREFIX.length + 4);

const who = (id: number | null, username: string | null) =>
  id !== null && username !== null ? { id, username } : null;

function toKey(row: BackupKeyRow): BackupKey {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    createdBy: who(row.createdById, row.createdByUsername),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedAddress: row.lastUsedAddress,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: who(row.revokedById, row.revokedByUsername),
  };
}

export async function listBackupKeys(ctx: Context): Promise<BackupKey[]> {
  return (await listKeyRows(ctx.db)).map(toKey);
}

/** A new key: its row and its secret, which the answer carries this once and the database never holds. */
export async function createBackupKey(ctx: Context, input: CreateBackupKeyInput): Promise<CreatedBackupKey> {
  const { db, caller } = ctx;
  const secret = `${BACKUP_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const hint = hintOf(secret);
  try {
    const id = await db.transaction(async (tx) => {
      const created = await insertKey(tx, {
        name: input.name,
        keyHash: hashBackupKey(secret),
        hint,
        createdBy: caller.id,
      });
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'backup.key_created',
        targetKind: 'backup_key',
        targetId: created,
        details: { name: input.name, hint },
      });
      return created;
    });
    const row = await keyRow(db, id);
    if (!row) throw new Error('backup key vanished after its insert');
    return { key: toKey(row), secret, message: SERVER_MESSAGES.backupKeyCreated };
  } catch (error) {
    if (isNameTaken(error))
      throw new AppError('CONFLICT', SERVER_MESSAGES.backupKeyNameInUse, {
        fieldErrors: { name: SERVER_MESSAGES.backupKeyNameInUse },
      });
    throw error;
  }
}

/** Revokes a key (it stays listed); a revoked one is a 409, a missing one a 404. */
export async function revokeBackupKey(ctx: Context, id: number): Promise<RevokedBackupKey> {
  const { db, caller } = ctx;
  const revoked = await db.transaction(async (tx) => {
    const row = await revokeKeyRow(tx, id, caller.id);
    if (!row) return undefined;
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'backup.key_revoked',
      targetKind: 'backup_key',
      targetId: id,
      details: { name: row.name },
    });
    return row;
  });
  const row = await keyRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
  if (!revoked) throw new AppError('CONFLICT', SERVER_MESSAGES.backupKeyAlreadyRevoked);
  return { key: toKey(row), message: SERVER_MESSAGES.backupKeyRevoked };
}

/** Who takes a backup: an admin signed in, or a backup key. */
export type BackupTaker = { caller: Caller } | { key: { id: number; name: string }; address: string };

/**
 * The key a request presents, if it is one and not revoked; otherwise 401, and the refusal is an
 * audit row `backup.key_refused` (no actor; the key's first characters, and the key itself when it
 * is a revoked one), so a stolen or forgotten key that is still tried shows up (decision 064).
 */
export async function authenticateBackupKey(
  ctx: AppContext,
  key: string,
  address: string,
): Promise<{ id: number; name: string }> {
  const found = await keyByHash(ctx.db, hashBackupKey(key));
  if (found && !found.revoked) return { id: found.id, name: found.name };
  await recordAudit(ctx.db, {
    actorId: null,
    address,
    action: 'backup.key_refused',
    targetKind: found ? 'backup_key' : undefined,
    targetId: found?.id ?? null,
    details: found
      ? { key: found.name, hint: hintOf(key), reason: 'revoked' }
      : { hint: hintOf(key), reason: 'unknown' },
  });
  throw new AppError('UNAUTHORIZED', SERVER_MESSAGES.backupKeyInvalid);
}

/** One audit row per copy handed out (and the key's last use), after the copy was taken. */
export async function recordBackupTaken(ctx: AppContext, taker: BackupTaker, bytes: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if ('caller' in taker) {
      await recordAudit(tx, { ...byCaller(taker.caller), action: 'backup.downloaded', details: { bytes } });
      return;
    }
    await markKeyUsed(tx, taker.key.id, taker.address);
    await recordAudit(tx, {
      actorId: null,
      address: taker.address,
      action: 'backup.downloaded',
      targetKind: 'backup_key',
      targetId: taker.key.id,
      details: { key: taker.key.name, bytes },
    });
  });
}
