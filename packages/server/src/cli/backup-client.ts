import { accessSync, constants, createWriteStream, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { BACKUP_KEY_PATTERN } from '@lot/domain/schemas/backup';
import { writeAtomically } from '../db/backup.ts';

/**
 * `npm run backup`'s side of a backup taken by the running server (decisions 027 and 041): the
 * credential it asks with, the call, and the note on the keys a restore needs.
 */

/** A backup key (decision 041), or the admin's password (only while no code is asked for). */
export type BackupCredential = { kind: 'key'; key: string } | { kind: 'password'; username: string; password: string };

/** Why a backup could not be asked for, in words that say what to do. */
export class BackupRefused extends Error {}

const USE_A_KEY =
  "use a backup key: an admin creates one on the profile page (Backup keys); save it in a file only the backup's user can read (chmod 600) and set LOT_BACKUP_KEY_FILE to that file (README, Back it up)";

/**
 * The credential of this environment: LOT_BACKUP_KEY_FILE (a file holding a backup key, readable
 * by its owner only), else LOT_BACKUP_KEY, else ADMIN_USERNAME / ADMIN_PASSWORD; undefined if none.
 */
export function backupCredential(
  env: NodeJS.ProcessEnv,
  admin: { username: string; password: string | undefined },
): BackupCredential | undefined {
  const file = env.LOT_BACKUP_KEY_FILE;
  if (file) {
    let mode: number;
    let text: string;
    try {
      mode = statSync(file).mode;
      text = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new BackupRefused(
        `LOT_BACKUP_KEY_FILE (${resolve(file)}) cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if ((mode & 0o077) !== 0)
      throw new BackupRefused(
        `LOT_BACKUP_KEY_FILE (${resolve(file)}) may be read by other users: make it readable by its owner only (chmod 600 ${resolve(file)})`,
      );
    return { kind: 'key', key: checkedKey(text, `LOT_BACKUP_KEY_FILE (${resolve(file)})`) };
  }
  if (env.LOT_BACKUP_KEY) return { kind: 'key', key: checkedKey(env.LOT_BACKUP_KEY.trim(), 'LOT_BACKUP_KEY') };
  if (admin.password) return { kind: 'password', username: admin.username, password: admin.password };
  return undefined;
}

function checkedKey(text: string, where: string): string {
  if (!BACKUP_KEY_PATTERN.test(text))
    throw new BackupRefused(
      `${where} holds no backup key: a key is lotbk_ followed by 43 letters, digits, - and _, as shown once when it was created`,
    );
  return text;
}

/**
 * The folder the backup goes into exists and this user may write there; otherwise `BackupRefused`
 * says how to make it (the copy would be taken, and audited as handed out, for nothing).
 */
export function assertWritableFolder(file: string): void {
  const folder = dirname(resolve(file));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // Missing: said below.
  }
  if (!isFolder)
    throw new BackupRefused(
      `the folder ${folder} does not exist: create it first, readable by its owner only (mkdir -p -m 700 ${folder})`,
    );
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new BackupRefused(
      `this user may not write into ${folder}: run the backup as its owner, or choose another folder`,
    );
  }
}

/** Asks the server at `url` for the copy (GET /api/admin/backup) and streams it into `file`. */
export async function backupThroughServer(
  url: string,
  credential: BackupCredential | undefined,
  file: string,
): Promise<void> {
  if (!credential)
    throw new BackupRefused(`a server (${url}) has the database open, so the backup must ask it: ${USE_A_KEY}`);
  const token = credential.kind === 'key' ? credential.key : await signIn(url, credential);
  const response = await fetch(new URL('/api/admin/backup', url), { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) {
    const text = await response.text();
    if (credential.kind === 'key' && response.status === 401)
      throw new BackupRefused(
        `the server refused the backup key (401 ${errorMessage(text)}): an admin revoked it, or it belongs to another server. Create a new one on the admin's profile page (Backup keys)`,
      );
    if (response.status === 403 && text.includes('TWO_FACTOR_ENROLMENT_REQUIRED'))
      throw new BackupRefused(
        `the admins' sign-in requires two-factor, which a scheduled backup cannot answer: ${USE_A_KEY}`,
      );
    throw new BackupRefused(`the server refused the backup: ${response.status} ${text}`);
  }
  const body = response.body;
  await writeAtomically(file, (partial) =>
    pipeline(Readable.fromWeb(body as ReadableStream), createWriteStream(partial, { mode: 0o600 })),
  );
}

async function signIn(url: string, credential: { username: string; password: string }): Promise<string> {
  const signin = await fetch(new URL('/api/auth/signin', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: credential.username, password: credential.password }),
  });
  const text = await signin.text();
  if (!signin.ok) throw new BackupRefused(`signing in as ${credential.username} failed: ${signin.status} ${text}`);
  const answer = JSON.parse(text) as { accessToken?: string; twoFactorRequired?: boolean };
  if (answer.twoFactorRequired || !answer.accessToken)
    throw new BackupRefused(
      `${credential.username} signs in with two-factor, which a scheduled backup cannot answer: ${USE_A_KEY}`,
    );
  return answer.accessToken;
}

const errorMessage = (text: string) => {
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text;
  }
};

/**
 * The note `npm run backup` ends with: the keys a restore needs besides the backup, where each is
 * (its variable, or its file in DATA_DIR), and why they are kept apart from the backups.
 */
export function restoreKeysNote(config: {
  dataDir: string;
  databaseUrl?: string | undefined;
  jwtSecret: string | undefined;
  totpKey: string | undefined;
  seedKey: string | undefined;
  logKey?: string | undefined;
}): string {
  const place = (variable: string, name: string, configured: string | undefined) =>
    configured ? `${variable} (as set here)` : `${resolve(config.dataDir, name)} (or ${variable})`;
  const places = [
    place('JWT_SECRET', 'jwt-secret', config.jwtSecret),
    place('TOTP_KEY', 'totp-key', config.totpKey),
    place('SEED_KEY', 'seed-key', config.seedKey),
    place('LOG_KEY', 'log-key', config.logKey),
  ];
  return (
    `A restore needs these keys besides the backup: ${places.join(', ')}. ` +
    "Keep copies of them apart from the backups: the games' seeds in a backup are sealed with the seed key, the two-factor secrets with the TOTP key, and the game log is signed with the log key. " +
    (config.databaseUrl
      ? 'On PostgreSQL the server starts only with all four set; a TOTP_KEY, SEED_KEY or LOG_KEY other than the one the database was used with is refused, naming it, and another JWT_SECRET signs everyone out.'
      : 'Without the TOTP key, the seed key or the log key the server refuses to start on the restored database, naming the file; without the JWT secret it makes a new one and everyone signs in again.')
  );
}
