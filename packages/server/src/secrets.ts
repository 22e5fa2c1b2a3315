import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config.ts';
import type { Db } from './db/client.ts';
import { KEY_VARIABLES, KeyMismatch, keyRefusal, sealedWith, type SealingKey } from './lib/key-canaries.ts';

/**
 * The files in DATA_DIR a restore needs besides the database (decision 042): `totp-key` and
 * `seed-key` open what the database holds and `log-key` signs its game log (the server refuses to
 * start without them);
 * `jwt-secret` keeps the sessions signed in (without it everyone signs in again).
 */
export const KEY_FILES = ['jwt-secret', 'totp-key', 'seed-key', 'log-key'] as const;

/**
 * JWT_SECRET, or DATA_DIR/jwt-secret, or a new one (`created`) that `keepJwtSecret` writes there
 * (readable by the owner only) once the start has passed every key check: a start refused for a
 * wrong key leaves no new jwt-secret behind. The database holds nothing signed with it, so it can
 * wait; the sealing keys cannot (their files come first, decision 042).
 */
export function resolveJwtSecret(
  configured: string | undefined,
  dataDir: string,
): { secret: string; created: boolean } {
  const found = configured ?? readKeyFile(dataDir, 'jwt-secret');
  return found ? { secret: found, created: false } : { secret: newSecret(), created: true };
}

/** Writes a generated JWT secret into DATA_DIR/jwt-secret (see `resolveJwtSecret`). */
export function keepJwtSecret(dataDir: string, secret: string): void {
  writeKeyFile(dataDir, 'jwt-secret', secret);
}

/** Where a key comes from, as the refusals name it: the variable, or the file in DATA_DIR. */
export function keyPlace(key: SealingKey, configured: string | undefined, dataDir: string): string {
  return configured ? KEY_VARIABLES[key] : `DATA_DIR/${key} (${join(dataDir, key)})`;
}

/**
 * A key that seals data in the database (TOTP_KEY, decision 028; SEED_KEY, decision 034): the
 * variable, else its file in DATA_DIR. A missing file is generated (owner-only) only while the
 * database holds nothing sealed with such a key; otherwise `KeyMismatch` names the file to
 * restore (decision 042), and no file is written.
 */
export async function resolveSealingKey(
  db: Db,
  key: SealingKey,
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  const found = configured ?? readKeyFile(dataDir, key);
  if (found) return found;
  if (await sealedWith(db, key))
    throw new KeyMismatch(key, true, keyRefusal(key, keyPlace(key, undefined, dataDir), true));
  return createKeyFile(dataDir, key);
}

/**
 * The three keys of a start: every missing file the database needs is named, one line each.
 * `jwtSecretCreated`: the JWT secret is new and not yet in DATA_DIR (`keepJwtSecret` writes it once
 * the app is built).
 */
export async function resolveKeys(
  db: Db,
  config: Pick<Config, 'dataDir'> & Partial<Pick<Config, 'jwtSecret' | 'totpKey' | 'seedKey' | 'logKey'>>,
): Promise<{ jwtSecret: string; jwtSecretCreated: boolean; totpKey: string; seedKey: string; logKey: string }> {
  const [totpKey, seedKey, logKey] = await Promise.allSettled([
    resolveSealingKey(db, 'totp-key', config.totpKey, config.dataDir),
    resolveSealingKey(db, 'seed-key', config.seedKey, config.dataDir),
    resolveSealingKey(db, 'log-key', config.logKey, config.dataDir),
  ]);
  const failed = [totpKey, seedKey, logKey].flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  const other = failed.find((reason) => !(reason instanceof KeyMismatch));
  if (other !== undefined) throw other;
  if (failed.length === 1) throw failed[0];
  // Several files missing (a restore without them): each named, one line each.
  if (failed.length > 1) throw new ConfigError(failed.map((reason: KeyMismatch) => reason.message).join('\n'));
  const jwt = resolveJwtSecret(config.jwtSecret, config.dataDir);
  return {
    jwtSecret: jwt.secret,
    jwtSecretCreated: jwt.created,
    totpKey: (totpKey as PromiseFulfilledResult<string>).value,
    seedKey: (seedKey as PromiseFulfilledResult<string>).value,
    logKey: (logKey as PromiseFulfilledResult<string>).value,
  };
}

function readKeyFile(dataDir: string, name: string): string | undefined {
  const file = join(dataDir, name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

const newSecret = () => randomBytes(48).toString('base64url');

type KeyFile = (typeof KEY_FILES)[number];

/** What a generated key file is for, as the first start says when it creates one (docs/upgrading.md). */
const KEY_FILE_USE: Record<KeyFile, string> = {
  'jwt-secret': 'signs sign-in tokens (JWT_SECRET); without it everyone signs in again',
  'totp-key': 'seals two-factor secrets (TOTP_KEY); the server will not start on this database without it',
  'seed-key': "seals the games' seeds (SEED_KEY); the server will not start on this database without it",
  'log-key': 'signs the game log (LOG_KEY); the server will not start on this database without it',
};

/** Writes a new key file, its owner's only (decision 063), and says so once. */
function writeKeyFile(dataDir: string, name: KeyFile, secret: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, name);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  console.log(`Created DATA_DIR/${name} (${file}): it ${KEY_FILE_USE[name]}. Back it up with the database.`);
}

function createKeyFile(dataDir: string, name: KeyFile): string {
  const secret = newSecret();
  writeKeyFile(dataDir, name, secret);
  return secret;
}
