import { desc, eq, isNotNull } from 'drizzle-orm';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/client.ts';
import { gameLog, keyCanaries, seedKeyCheck, userTwoFactor } from '../db/schema.ts';
import { SecretBox } from './secret-box.ts';

/**
 * The keys that seal data in the database but live outside it (decision 042): the database keeps
 * a canary for each, a value sealed with it, and a server whose key does not open the canary
 * refuses to start. The seed key's canary is `seed_key_check` (decision 034, `lib/seed-box.ts`);
 * the two-factor key's is the `totp-key` row of `key_canaries`.
 */
export type SealingKey = 'totp-key' | 'seed-key' | 'log-key';

/** What each key seals, in the words of the refusal. */
const SEALS: Record<SealingKey, string> = {
  'totp-key': 'the two-factor secrets',
  'seed-key': "the games' secret seeds",
  'log-key': 'the game log signed with it',
};

/** The variable each key file stands for. */
export const KEY_VARIABLES: Record<SealingKey, string> = {
  'totp-key': 'TOTP_KEY',
  'seed-key': 'SEED_KEY',
  'log-key': 'LOG_KEY',
};

/**
 * The server must not start: its key cannot open what the database holds, or (`missing`) its file
 * is gone while the database holds data sealed with it. main.ts prints `keyRefusal` with the
 * key's place (the file in DATA_DIR or the variable): one line.
 */
export class KeyMismatch extends ConfigError {
  constructor(
    readonly key: SealingKey,
    readonly missing = false,
    message: string = keyRefusal(key, KEY_VARIABLES[key], missing),
  ) {
    super(message);
  }
}

/**
 * The one line that names the key: `place` is `DATA_DIR/totp-key (…)` for a key kept in a file,
 * or the variable (`TOTP_KEY`) when the environment sets it.
 */
export function keyRefusal(key: SealingKey, place: string, missing = false): string {
  const fromFile = !place.startsWith(KEY_VARIABLES[key]);
  const remedy = fromFile
    ? `restore the ${key} file that was backed up with it`
    : `set ${KEY_VARIABLES[key]} to the key this database was used with`;
  // The log key seals nothing: it signs the game log, whose verifier key the database keeps (decision 081).
  if (key === 'log-key')
    return missing
      ? `${place} is missing, but this database holds a game log signed with it: ${remedy}`
      : `${place} is not the key this database's game log is signed with: ${remedy}`;
  return missing
    ? `${place} is missing, but this database holds ${SEALS[key]} sealed with it: ${remedy}`
    : `${place} cannot open ${SEALS[key]} in this database: ${remedy}`;
}

/** Whether the database holds anything sealed with this key: its canary, or (before 042) sealed rows. */
export async function sealedWith(db: Db, key: SealingKey): Promise<boolean> {
  if (key === 'seed-key') return (await db.select({ id: seedKeyCheck.id }).from(seedKeyCheck).limit(1)).length > 0;
  if (key === 'log-key')
    return (await db.select({ id: gameLog.id }).from(gameLog).where(isNotNull(gameLog.vkey)).limit(1)).length > 0;
  const [canary] = await db
    .select({ name: keyCanaries.name })
    .from(keyCanaries)
    .where(eq(keyCanaries.name, key))
    .limit(1);
  if (canary) return true;
  return (await db.select({ userId: userTwoFactor.userId }).from(userTwoFactor).limit(1)).length > 0;
}

/** What the canary seals; its context can never be a user's (`user_two_factor:<id>`). */
const CANARY_TEXT = 'LOT totp-key canary';
const CANARY_CONTEXT = 'key canary totp-key';
/** A database from before decision 042: this many of its newest secrets are tried. */
const SAMPLE = 20;

function opens(box: SecretBox, sealed: string, context: string): boolean {
  try {
    box.open(sealed, context);
    return true;
  } catch {
    return false;
  }
}

/**
 * At start-up (buildApp, before anything listens): TOTP_KEY must open the database's canary. The
 * first start writes it; a database from before decision 042 that already holds two-factor
 * secrets gets it only when the key opens one of them, so a wrong key is never blessed. Throws
 * `KeyMismatch('totp-key')`. Concurrent first starts on PostgreSQL: one insert wins, the others
 * read it and check against it.
 */
export async function checkTotpKey(db: Db, totpKey: string): Promise<void> {
  const box = new SecretBox(totpKey);
  const stored = async () => {
    const [row] = await db.select().from(keyCanaries).where(eq(keyCanaries.name, 'totp-key'));
    return row;
  };
  let canary = await stored();
  if (!canary) {
    const secrets = await db
      .select({ userId: userTwoFactor.userId, secret: userTwoFactor.secret })
      .from(userTwoFactor)
      .orderBy(desc(userTwoFactor.createdAt))
      .limit(SAMPLE);
    if (secrets.length > 0 && !secrets.some((row) => opens(box, row.secret, `user_two_factor:${row.userId}`)))
      throw new KeyMismatch('totp-key');
    await db
      .insert(keyCanaries)
      .values({ name: 'totp-key', sealed: box.seal(CANARY_TEXT, CANARY_CONTEXT) })
      .onConflictDoNothing();
    canary = await stored();
  }
  if (!canary || !opens(box, canary.sealed, CANARY_CONTEXT)) throw new KeyMismatch('totp-key');
}
