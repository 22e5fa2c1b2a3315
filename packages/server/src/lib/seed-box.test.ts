import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError } from '../config.ts';
import { queryRows } from '../db/client.ts';
import { gameRounds, seedKeyCheck, users } from '../db/schema.ts';
import { ADMIN, createTestApp, TEST_DB, type TestApp } from '../test/test-app.ts';
import { openSeedBox, SeedBox, SeedKeyMismatch } from './seed-box.ts';

const KEY = 'a-seed-key-that-is-long-enough-0123456789';
const CODE = 'kM2f0vXb6yQe1rTz9sWd3A';
const OTHER = 'Zp7Lq4Hn2Cx8Vb5Nm1Kj6G';

describe('SeedBox', () => {
  it('opens what it sealed, for the same game and key, and nothing else', () => {
    const box = new SeedBox(KEY);
    const seed = randomBytes(32);
    const sealed = box.seal(CODE, seed);
    // version · IV · tag · ciphertext, the seed nowhere in it, a fresh IV every time
    expect(sealed).toHaveLength(1 + 12 + 16 + 32);
    expect(sealed[0]).toBe(1);
    expect(sealed.includes(seed)).toBe(false);
    expect(box.seal(CODE, seed).equals(sealed)).toBe(false);
    expect(box.open(CODE, sealed).equals(seed)).toBe(true);
    expect(box.open(CODE, new Uint8Array(sealed)).equals(seed)).toBe(true);

    // Another game's code, another key, any changed byte, another version, a cut value: refused.
    expect(() => box.open(OTHER, sealed)).toThrow();
    expect(() => new SeedBox(`${KEY}!`).open(CODE, sealed)).toThrow();
    for (const at of [0, 1, 13, 29, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[at] = (altered[at] ?? 0) ^ 0x01;
      expect(() => box.open(CODE, altered), `byte ${at}`).toThrow();
    }
    expect(() => box.open(CODE, sealed.subarray(0, 29))).toThrow();
    expect(() => box.open(CODE, sealed.subarray(0, 40))).toThrow();
    expect(() => box.open(CODE, seed)).toThrow();
  });

  it('recognises its own check value only', () => {
    const box = new SeedBox(KEY);
    expect(box.matches(box.checkValue())).toBe(true);
    expect(new SeedBox(`${KEY}!`).matches(box.checkValue())).toBe(false);
    expect(box.matches(box.seal(CODE, randomBytes(32)))).toBe(false);
    expect(box.matches(Buffer.from('garbage'))).toBe(false);
  });
});

describe(`seeds at start-up (${TEST_DB})`, () => {
  let t: TestApp;
  let playerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const [admin] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, ADMIN.username));
    playerId = admin?.id ?? 0;
  });
  afterAll(() => t.close());

  /** A second app on the test's database, as a restarted server would be. */
  const start = (seedKey: string) =>
    buildApp({
      database: t.database,
      jwtSecret: t.jwtSecret,
      totpKey: t.totpKey,
      seedKey,
      logKey: t.logKey,
      logLevel: 'silent',
      serveWeb: false,
    });

  /** Games as a release before decision 034 left them: seeds in the clear, `seed_sealed` false. */
  async function insertLegacy(count: number, prefix: string): Promise<Map<string, Buffer>> {
    const rows = Array.from({ length: count }, (_, i) => ({ code: `${prefix}-${i}`, seed: randomBytes(32) }));
    for (let i = 0; i < rows.length; i += 400) {
      await t.database.db.insert(gameRounds).values(
        rows.slice(i, i + 400).map((row) => ({
          code: row.code,
          userId: playerId,
          status: 'discarded' as const,
          startRange: 1,
          endRange: 20,
          betAmount: 500,
          prizes: [],
          seed: row.seed,
          commitment: 'legacy',
        })),
      );
    }
    return new Map(rows.map((row) => [row.code, row.seed]));
  }

  const stored = (prefix: string) =>
    t.database.db
      .select({ code: gameRounds.code, seed: gameRounds.seed, sealed: gameRounds.seedSealed })
      .from(gameRounds)
      .where(sql`${gameRounds.code} LIKE ${`${prefix}-%`}`);

  it('the first start keeps a check value sealed with the key, nothing in the clear', async () => {
    const rows = await t.database.db.select().from(seedKeyCheck);
    expect(rows).toHaveLength(1);
    expect(new SeedBox(t.seedKey).matches(rows[0]?.checkValue ?? Buffer.alloc(0))).toBe(true);
    expect(t.app.context.seeds.matches(rows[0]?.checkValue ?? Buffer.alloc(0))).toBe(true);
    expect((rows[0]?.checkValue ?? Buffer.alloc(0)).toString('latin1')).not.toContain('seed key');
  });

  it('a start with another key is refused with a message naming SEED_KEY, and seals nothing', async () => {
    const legacy = await insertLegacy(1, 'refused');
    const error: unknown = await start(randomBytes(32).toString('hex')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedKeyMismatch);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "SEED_KEY does not match the key this database's game seeds were sealed with (DATA_DIR/seed-key or SEED_KEY): " +
        'restore the key that came with this database',
    );
    const [row] = await stored('refused');
    expect(row?.sealed).toBe(false);
    expect(row?.seed.equals(legacy.get('refused-0') ?? Buffer.alloc(0))).toBe(true);
    expect(await t.database.db.select().from(seedKeyCheck)).toHaveLength(1);

    // The right key starts, and seals that row.
    const app = await start(t.seedKey);
    await app.close();
    const [after] = await stored('refused');
    expect(after?.sealed).toBe(true);
  });

  it('a start seals every seed left in the clear, in batches, once; open() gives each back', async () => {
    const legacy = await insertLegacy(1_201, 'legacy');
    const app = await start(t.seedKey);
    try {
      const rows = await stored('legacy');
      expect(rows).toHaveLength(1_201);
      for (const row of rows) {
        const seed = legacy.get(row.code) ?? Buffer.alloc(0);
        expect(row.sealed).toBe(true);
        expect(row.seed.includes(seed)).toBe(false);
        expect(app.context.seeds.open(row.code, row.seed).equals(seed)).toBe(true);
      }
      // No row of the database holds a seed in the clear.
      const [clear] = await queryRows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM game_rounds WHERE NOT seed_sealed`,
      );
      expect(clear?.n).toBe(0);

      // The next start leaves sealed seeds as they are.
      const again = await start(t.seedKey);
      await again.close();
      const unchanged = await stored('legacy');
      expect(new Map(unchanged.map((row) => [row.code, row.seed.toString('hex')]))).toEqual(
        new Map(rows.map((row) => [row.code, row.seed.toString('hex')])),
      );

      // A sealed seed copied onto another game does not open there.
      const [first, second] = rows;
      if (!first || !second) throw new Error('no rows');
      await t.database.db.update(gameRounds).set({ seed: first.seed }).where(eq(gameRounds.code, second.code));
      const [copied] = await t.database.db
        .select({ seed: gameRounds.seed })
        .from(gameRounds)
        .where(eq(gameRounds.code, second.code));
      expect(() => app.context.seeds.open(second.code, copied?.seed ?? Buffer.alloc(0))).toThrow();
    } finally {
      await app.close();
    }
  });

  it('starts at the same time seal each seed once', async () => {
    const legacy = await insertLegacy(600, 'together');
    const [a, b] = await Promise.all([openSeedBox(t.database.db, t.seedKey), openSeedBox(t.database.db, t.seedKey)]);
    for (const row of await stored('together')) {
      expect(row.sealed).toBe(true);
      expect(a.open(row.code, row.seed).equals(legacy.get(row.code) ?? Buffer.alloc(0))).toBe(true);
      expect(b.open(row.code, row.seed).equals(legacy.get(row.code) ?? Buffer.alloc(0))).toBe(true);
    }
  });
});
