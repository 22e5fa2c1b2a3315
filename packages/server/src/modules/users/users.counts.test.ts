import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';

/**
 * The admin's user lists take their totals from the kept counts (user_counts, migration 0004):
 * after every kind of write they must equal counting the users themselves.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

type Count = { role: string; status: string; users: number };

const counted = () =>
  queryRows<Count>(
    t.database.db,
    sql`SELECT role, status, count(*)::int AS users FROM users WHERE deleted_at IS NULL
        GROUP BY role, status ORDER BY role, status`,
  );
const kept = () =>
  queryRows<Count>(
    t.database.db,
    sql`SELECT role, status, users FROM user_counts WHERE users <> 0 ORDER BY role, status`,
  );

/** The totals an admin's lists answer, for every role and status filter. */
async function listedTotals(): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const role of ['admin', 'superagent', 'agent', 'user']) {
    for (const status of ['', 'active', 'inactive']) {
      const response = await t.request(t.adminToken, {
        method: 'GET',
        url: `/api/users/role/${role}?limit=1${status ? `&status=${status}` : ''}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      totals[`${role}/${status || 'any'}`] = Number(response.headers['x-total-count']);
    }
  }
  return totals;
}

/** The same totals computed from users itself. */
async function countedTotals(): Promise<Record<string, number>> {
  const rows = await counted();
  const totals: Record<string, number> = {};
  for (const role of ['admin', 'superagent', 'agent', 'user']) {
    for (const status of ['any', 'active', 'inactive']) {
      totals[`${role}/${status}`] = rows
        .filter((row) => row.role === role && (status === 'any' || row.status === status))
        .reduce((sum, row) => sum + row.users, 0);
    }
  }
  return totals;
}

async function expectExact() {
  expect(await kept()).toEqual(await counted());
  expect(await listedTotals()).toEqual(await countedTotals());
}

const createUser = (username: string, parentId?: number) =>
  t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { username, password: 'secret-pass', fullName: `Counted ${username}`, role: 'user', parentId },
  });

describe('kept user counts', () => {
  it('start equal to the users of the hierarchy', async () => {
    expect(await countedTotals()).toMatchObject({ 'user/any': 6, 'user/inactive': 1, 'agent/any': 3 });
    await expectExact();
  });

  it('follow creation, concurrent creation, deactivation, edits and deletion', async () => {
    expect((await createUser('counted_one', h.A1.id)).statusCode).toBe(201);
    await expectExact();

    const concurrent = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(`counted_c${i}`)));
    expect(concurrent.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    await expectExact();

    const edit = (id: number, payload: Record<string, unknown>) =>
      t.request(t.adminToken, { method: 'PUT', url: `/api/users/${id}`, payload });
    expect((await edit(h.U1.id, { status: 'inactive' })).statusCode).toBe(200);
    await expectExact();
    expect((await edit(h.U1.id, { fullName: 'Renamed, still counted once' })).statusCode).toBe(200);
    await expectExact();
    expect((await edit(h.U1.id, { status: 'active' })).statusCode).toBe(200);
    await expectExact();

    const gone = await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${h.U3.id}` });
    expect(gone.statusCode, gone.body).toBe(200);
    await expectExact();
    // A refused request changes nothing.
    expect((await createUser('counted_one')).statusCode).toBe(409);
    await expectExact();
  });

  it('follow writes outside the API: bulk inserts, several rows per statement, hard deletes', async () => {
    await t.database.db.execute(sql`
      INSERT INTO users (username, password_hash, full_name, role, status)
      SELECT 'bulk_' || n, 'x', 'Bulk ' || n, 'user', CASE WHEN n % 3 = 0 THEN 'inactive' ELSE 'active' END
      FROM generate_series(1, 50) AS n`);
    await expectExact();
    await t.database.db.execute(
      sql`UPDATE users SET status = CASE status WHEN 'active' THEN 'inactive' ELSE 'active' END WHERE username LIKE 'bulk_%'`,
    );
    await expectExact();
    await t.database.db.execute(sql`UPDATE users SET deleted_at = now() WHERE username LIKE 'bulk_1%'`);
    await expectExact();
    await t.database.db.execute(sql`DELETE FROM users WHERE username LIKE 'bulk_%'`);
    await expectExact();
  });
});
