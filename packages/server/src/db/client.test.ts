import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../test/test-app.ts';
import { queryPrepared, queryRows } from './client.ts';

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

  it.runIf(TEST_DB === 'postgres')('prepares a named statement on the connection (PostgreSQL)', async () => {
    const names = await t.database.db.transaction(async (tx) => {
      await queryPrepared(tx, probe(7));
      return queryRows<{ name: string; statement: string }>(
        tx,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'lot\_%'`,
      );
    });
    expect(names.some(({ statement }) => statement.includes("current_setting('application_name')"))).toBe(true);
  });
});
