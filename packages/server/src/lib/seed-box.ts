import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { gameRounds, seedKeyCheck } from '../db/schema.ts';
import { KeyMismatch } from './key-canaries.ts';
import { AesGcmKey } from './secret-box.ts';

/** The first byte of every sealed seed: the format (AES-256-GCM, 12-byte IV, 16-byte tag). */
const VERSION = 1;
const HEADER = 1 + 12 + 16;

/** What the key check seals; its context can never be a game's code (codes are base64url). */
const CHECK_TEXT = 'LOT seed key check';
const CHECK_CONTEXT = 'seed key check';

/**
 * Seals the games' secret seeds at rest (decision 034): AES-256-GCM under the SHA-256 of SEED_KEY,
 * a random 12-byte IV, and the game's code as associated data, so a sealed seed copied onto
 * another game does not open. A sealed seed is `version (1) · IV (12) · tag (16) · ciphertext`.
 */
export class SeedBox {
  private readonly key: AesGcmKey;

  constructor(seedKey: string) {
    this.key = new AesGcmKey(seedKey);
  }

  seal(gameCode: string, seed: Uint8Array): Buffer {
    const { iv, tag, body } = this.key.seal(seed, gameCode);
    return Buffer.concat([Buffer.of(VERSION), iv, tag, body]);
  }

  /** The seed; throws when it was not sealed with this key for this game (or was altered). */
  open(gameCode: string, sealed: Uint8Array): Buffer {
    const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    if (bytes.length < HEADER || bytes[0] !== VERSION) throw new Error('not a sealed seed');
    return this.key.open(
      { iv: bytes.subarray(1, 13), tag: bytes.subarray(13, HEADER), body: bytes.subarray(HEADER) },
      gameCode,
    );
  }

  /** A value only this key opens: what the database keeps to recognise the key (`seed_key_check`). */
  checkValue(): Buffer {
    return this.seal(CHECK_CONTEXT, Buffer.from(CHECK_TEXT, 'utf8'));
  }

  /** Whether `check` was made by `checkValue()` under this key. */
  matches(check: Uint8Array): boolean {
    try {
      return this.open(CHECK_CONTEXT, check).toString('utf8') === CHECK_TEXT;
    } catch {
      return false;
    }
  }
}

/** The server must not start: the key is not the one the database's seeds were sealed with. */
export class SeedKeyMismatch extends KeyMismatch {
  constructor() {
    super(
      'seed-key',
      false,
      "SEED_KEY does not match the key this database's game seeds were sealed with (DATA_DIR/seed-key or SEED_KEY): " +
        'restore the key that came with this database',
    );
  }
}

/** Legacy rows sealed per statement. */
const BATCH = 500;

/**
 * The seed box of a database, at start-up (buildApp runs it before anything else): on the first
 * start the database keeps a check value sealed with the key; afterwards a key that does not open
 * it is refused (`SeedKeyMismatch`). In the same transaction every seed still in the clear (rows
 * from before decision 034, `seed_sealed` false) is sealed, so none survives a start. Concurrent
 * starts on PostgreSQL are safe: the check row is inserted once (the second waits for the first),
 * and the rows are locked and sealed only while still unsealed.
 */
export async function openSeedBox(db: Db, seedKey: string): Promise<SeedBox> {
  const box = new SeedBox(seedKey);
  await db.transaction(async (tx) => {
    await tx.insert(seedKeyCheck).values({ id: 1, checkValue: box.checkValue() }).onConflictDoNothing();
    const [stored] = await tx.select({ checkValue: seedKeyCheck.checkValue }).from(seedKeyCheck);
    if (!stored || !box.matches(stored.checkValue)) throw new SeedKeyMismatch();
    for (let after = 0; ;) {
      const rows = await tx
        .select({ id: gameRounds.id, code: gameRounds.code, seed: gameRounds.seed })
        .from(gameRounds)
        .where(and(eq(gameRounds.seedSealed, false), gt(gameRounds.id, after)))
        .orderBy(asc(gameRounds.id))
        .limit(BATCH)
        .for('update');
      const last = rows.at(-1);
      if (!last) break;
      const values = rows.map((row) => sql`(${row.id}::integer, ${box.seal(row.code, row.seed)}::bytea)`);
      await tx.execute(sql`
        UPDATE ${gameRounds} SET seed = v.seed, seed_sealed = true
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v (id, seed)
        WHERE ${gameRounds.id} = v.id AND NOT ${gameRounds.seedSealed}`);
      after = last.id;
    }
  });
  return box;
}
