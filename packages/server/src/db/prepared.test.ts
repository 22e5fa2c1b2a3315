import { eq, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../test/test-app.ts';
import { openDatabase, queryRows, type Db } from './client.ts';
import { queryPrepared, selectPrepared } from './prepared.ts';
import { users } from './schema.ts';
import { pgErrorCode } from './errors.ts';

/**
 * `queryPrepared` reaches below Drizzle's public API (`db._.session.prepareQuery`) to name a
 * statement, which Drizzle offers only for its query builders. This pins that use: if an upgrade of
 * drizzle-orm changes the internal call, these fail instead of the money calls quietly losing their
 * prepared statements (or their transaction).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const probe = (value: number) => sql`SELECT ${value}::int AS value, current_setting('application_name') AS app`;

describe(`queryPrepared (${TEST_DB})`, () => {
  it('answers the same rows as a plain query, with the values bound', async () => {
    const db = t.database.db;
    expect(await queryPrepared(db, probe(41))).toEqual(await queryRows(db, probe(41)));
    expect(await queryPrepared<{ value: number }>(db, probe(42))).toEqual([expect.objectContaining({ value: 42 })]);
  });

  it('runs inside the caller’s transaction: a rollback undoes what it wrote', async () => {
    const db = t.database.db;
    const marker = `prepared-${Date.now()}`;
    await expect(
      db.transaction(async (tx) => {
        await queryPrepared(tx, sql`UPDATE users SET full_name = ${marker} WHERE username = 'admin'`);
        const [seen] = await queryRows<{ n: number }>(
          tx,
          sql`SELECT count(*)::int AS n FROM users WHERE full_name = ${marker}`,
        );
        expect(seen?.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [after] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM users WHERE full_name = ${marker}`,
    );
    expect(after?.n).toBe(0);
  });

  it('answers what a plain query answers for every kind of value, also bound as null', async () => {
    const db = t.database.db;
    const kinds = (n: number | null, text: string | null) => sql`SELECT ${n}::int AS n, ${text}::text AS text,
      ${'12.50'}::numeric AS amount, '2026-01-02 03:04:05+00'::timestamptz AS at, '2026-01-02'::date AS day,
      '{"a": [1, 2]}'::jsonb AS doc, ARRAY[1, 2]::int[] AS list, true AS yes, 9007199254740993::bigint AS big`;
    expect(await queryPrepared(db, kinds(1, 'one'))).toEqual(await queryRows(db, kinds(1, 'one')));
    expect(await queryPrepared(db, kinds(null, null))).toEqual(await queryRows(db, kinds(null, null)));
    expect(await queryPrepared(db, sql`SELECT 1 AS n WHERE false`)).toEqual([]);
  });

  it('prepares a named statement on the connection', async () => {
    const names = await t.database.db.transaction(async (tx) => {
      await queryPrepared(tx, probe(7));
      return queryRows<{ name: string; statement: string }>(
        tx,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'lot\_%'`,
      );
    });
    expect(names.some(({ statement }) => statement.includes("current_setting('application_name')"))).toBe(true);
  });

  it('gives two different texts two statements, and reuses one statement for the same text many times', async () => {
    const db = t.database.db;
    const a = (value: number) => sql`SELECT ${value}::int + 1000 AS value`;
    const b = (value: number) => sql`SELECT ${value}::int + 2000 AS value`;
    for (let i = 0; i < 200; i++) {
      expect(await queryPrepared(db, a(i))).toEqual([{ value: 1000 + i }]);
      expect(await queryPrepared(db, b(i))).toEqual([{ value: 2000 + i }]);
    }
    // Inside a transaction the statements prepared outside it are the ones used.
    await db.transaction(async (tx) => {
      expect(await queryPrepared(tx, a(1))).toEqual([{ value: 1001 }]);
    });
    const prepared = await queryRows<{ statement: string }>(
      db,
      sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'lot\_%' AND statement LIKE '%::int + _000 AS value'`,
    );
    if (TEST_DB === 'pglite') {
      // One connection: exactly one statement per text (PostgreSQL: one per pooled connection that ran it).
      expect(prepared.map((p) => p.statement).sort()).toEqual([
        'SELECT $1::int + 1000 AS value',
        'SELECT $1::int + 2000 AS value',
      ]);
    }
  });

  it('a statement outside a transaction never runs inside another caller’s open transaction', async () => {
    const db = t.database.db;
    const marker = `isolated-${Date.now()}`;
    const count = () => sql`SELECT count(*)::int AS n FROM users WHERE full_name = ${marker}`;
    let updated!: () => void;
    const inside = new Promise<void>((resolve) => (updated = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const open = db.transaction(async (tx) => {
      await queryPrepared(tx, sql`UPDATE users SET full_name = ${marker} WHERE username = 'admin'`);
      updated();
      await gate;
      throw new Error('roll back');
    });
    await inside;
    const outside = queryPrepared<{ n: number }>(db, count());
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(open).rejects.toThrow('roll back');
    expect(await outside).toEqual([{ n: 0 }]);
  });

  it('a failing statement fails as a plain query does, and the connection carries on', async () => {
    const db = t.database.db;
    const bad = sql`SELECT 1 / ${0}::int AS value`;
    const code = async (run: () => Promise<unknown>) =>
      run().then(
        () => 'none',
        (error: unknown) => pgErrorCode(error),
      );
    expect(await code(() => queryPrepared(db, bad))).toBe(await code(() => queryRows(db, bad)));
    expect(await code(() => queryPrepared(db, bad))).toBe('22012');
    expect(await code(() => queryPrepared(db, sql`SELEC 1`))).toBe('42601');
    expect(await queryPrepared(db, probe(3))).toEqual([expect.objectContaining({ value: 3 })]);
  });
});

describe(`selectPrepared (${TEST_DB})`, () => {
  it('answers what the Drizzle select answers, mapped alike (a left join with no match included), as a named statement', async () => {
    const db = t.database.db;
    const parent = alias(users, 'parent');
    const select = (id: number) =>
      db
        .select({ id: users.id, username: users.username, parent: { id: parent.id, name: parent.username } })
        .from(users)
        .leftJoin(parent, eq(parent.id, users.parentId))
        .where(gt(users.id, id))
        .orderBy(users.id);
    for (const id of [0, 1, 1_000_000]) expect(await selectPrepared(select(id))).toEqual(await select(id));
    expect((await selectPrepared(select(0)))[0]?.parent).toBeNull();
    const names = await db.transaction(async (tx) => {
      const inTx = tx.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
      expect(await selectPrepared(inTx)).toEqual(await inTx);
      return queryRows<{ statement: string }>(
        tx,
        sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'lot\_%' AND statement LIKE '%"parent"%'`,
      );
    });
    if (TEST_DB === 'pglite') expect(names).toHaveLength(1);
  });
});

describe.runIf(TEST_DB === 'postgres')('unnamed statements (DATABASE_PREPARED=off, decision 055)', () => {
  /** The lot_ statements this database's one connection holds after a prepared query, a select and a fixed name. */
  async function namedOn(db: Db): Promise<string[]> {
    await queryPrepared(db, probe(5));
    await selectPrepared(db.select({ id: users.id }).from(users).where(eq(users.username, 'admin')));
    await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('lot_fixed')
      .execute({ id: 1 });
    const rows = await queryRows<{ name: string }>(
      db,
      sql`SELECT name FROM pg_prepared_statements WHERE name LIKE 'lot\_%'`,
    );
    return rows.map((row) => row.name);
  }

  it('belong to the database opened with prepared: false, not to the process: another database opened before keeps its names', async () => {
    const url = t.databaseUrl ?? '';
    const named = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    const unnamed = await openDatabase({ kind: 'postgres', url, poolSize: 1, prepared: false });
    try {
      expect(await namedOn(unnamed.db)).toEqual([]);
      expect(await namedOn(named.db)).toHaveLength(3);
      // The unnamed database's answers are the same rows.
      expect(await queryPrepared(unnamed.db, probe(8))).toEqual(await queryPrepared(named.db, probe(8)));
    } finally {
      await named.close();
      await unnamed.close();
    }
  });
});

describe('the versions prepared.ts was written against', () => {
  it('drizzle-orm and PGlite are pinned exactly, to the versions installed', async () => {
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of ['drizzle-orm', '@electric-sql/pglite']) {
      const wanted = manifest.dependencies[name];
      expect(wanted, `${name} in packages/server/package.json`).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = JSON.parse(
        await readFile(new URL(`../../../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
      ) as { version: string };
      expect(installed.version, `${name} installed`).toBe(wanted);
    }
  });
});
