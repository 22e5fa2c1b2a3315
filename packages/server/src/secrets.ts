import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** JWT_SECRET, or one generated on first start and kept in DATA_DIR (readable by the owner only). */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  return resolveSecret(configured, dataDir, 'jwt-secret');
}

/** TOTP_KEY, or one generated on first start and kept in DATA_DIR beside the JWT secret (decision 028). */
export function resolveTotpKey(configured: string | undefined, dataDir: string): string {
  return resolveSecret(configured, dataDir, 'totp-key');
}

/** SEED_KEY, or one generated on first start and kept in DATA_DIR beside the others (decision 034). */
export function resolveSeedKey(configured: string | undefined, dataDir: string): string {
  return resolveSecret(configured, dataDir, 'seed-key');
}

function resolveSecret(configured: string | undefined, dataDir: string, name: string): string {
  if (configured) return configured;
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
