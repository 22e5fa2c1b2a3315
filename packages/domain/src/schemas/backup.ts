import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

/**
 * Backup keys (decision 041, docs/product/runtime-and-security.md#backup-keys): a named, revocable
 * secret that `npm run backup` sends as `Authorization: Bearer lotbk_…` to take the copy, and
 * nothing else.
 */
export const BACKUP_KEY_PREFIX = 'lotbk_';

/** A key as the server hands it out: the prefix and 32 random bytes in base64url (43 characters). */
export const BACKUP_KEY_PATTERN = /^lotbk_[A-Za-z0-9_-]{43}$/;

export const BACKUP_KEY_NAME_MAX = 60;

export const createBackupKeySchema = z.strictObject({
  name: z
    .string({ error: MESSAGES.backupKeyNameRequired })
    .trim()
    .min(1, MESSAGES.backupKeyNameRequired)
    .max(BACKUP_KEY_NAME_MAX, MESSAGES.backupKeyNameMax),
});
export type CreateBackupKeyInput = z.infer<typeof createBackupKeySchema>;

const adminRef = z.object({ id: z.number().int(), username: z.string() });

export const backupKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters (`lotbk_AbCd`), to tell which key a cron file holds. */
  hint: z.string(),
  createdAt: z.string(),
  createdBy: adminRef.nullable(),
  lastUsedAt: z.string().nullable(),
  /** The address of the last backup taken with it. */
  lastUsedAddress: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: adminRef.nullable(),
});
export type BackupKey = z.infer<typeof backupKeySchema>;

/** The answer to a creation: the key's row, and its secret, shown this once. */
export const createdBackupKeySchema = z.object({ key: backupKeySchema, secret: z.string(), message: z.string() });
export type CreatedBackupKey = z.infer<typeof createdBackupKeySchema>;

export const revokedBackupKeySchema = z.object({ key: backupKeySchema, message: z.string() });
export type RevokedBackupKey = z.infer<typeof revokedBackupKeySchema>;
