import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { SCALE_PASSWORD, seedScale } from '../../cli/seed-scale.ts';
import { listGames } from '../../test/game-fixtures.ts';
import { expectStatus } from '../../test/money-fixtures.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { NEAR_PAGE_OFFSET } from './sales-history.repository.ts';

/**
 * A page that skips NEAR_PAGE_OFFSET rows or more takes the other path (decision 032): the totals
 * and the owner's role first, then the page, read from whichever end of the set is nearer. On
 * 2,400 games seeded in SQL, every such page equals the same slice of the whole set as the
 * database orders it, from either end, and a list out of reach is still a 404.
 */

let t: TestApp;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedScale(t.database.db, { users: 40, games: 2_400, superagents: 2, agentsPerSuperagent: 2 });
  for (const username of ['sa_1', 'sa_2']) {
    const [row] = await queryRows<{ id: number }>(
      t.database.db,
      sql`SELECT id FROM users WHERE username = ${username}`,
    );
    ids[username] = Number(row?.id);
    tokens[username] = await t.login(username, SCALE_PASSWORD);
  }
}, 120_000);
afterAll(() => t.close());

/** The set's game ids, newest first, as the database orders them. */
async function wholeSet(superagentId?: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    t.database.db,
    sql`SELECT id FROM games WHERE ${superagentId ?? null}::int IS NULL OR superagent_id = ${superagentId ?? null}::int
        ORDER BY created_at DESC, id DESC`,
  );
  return rows.map((row) => Number(row.id));
}

describe('pages past the first 1,000 games', () => {
  it('equal the slice of the whole set, read from the newest or the oldest end', async () => {
    const cases: [string, string, number[]][] = [
      [t.adminToken, '/api/sales-history/filter', await wholeSet()],
      [tokens.sa_1 ?? '', `/api/sales-history/superagent/${ids.sa_1}`, await wholeSet(ids.sa_1)],
    ];
    for (const [token, url, whole] of cases) {
      expect(whole.length).toBeGreaterThan(NEAR_PAGE_OFFSET + 20);
      // From the first deep page (the newest end is nearer for the admin's 2,400 games) to the
      // last, partial one (the oldest end), and one past the end.
      for (const offset of [
        NEAR_PAGE_OFFSET,
        NEAR_PAGE_OFFSET + 7,
        whole.length - 25,
        whole.length - 3,
        whole.length,
      ]) {
        const page = await listGames(t, token, `${url}?limit=10&offset=${offset}`);
        expect({ offset, ids: page.ids, total: page.total }).toEqual({
          offset,
          ids: whole.slice(offset, offset + 10),
          total: whole.length,
        });
      }
    }
  });

  it('a list out of reach, or of another role, is 404 however deep', async () => {
    const deep = `limit=10&offset=${NEAR_PAGE_OFFSET + 5}`;
    expectStatus(
      await t.request(tokens.sa_2 ?? '', { method: 'GET', url: `/api/sales-history/superagent/${ids.sa_1}?${deep}` }),
      404,
    );
    expectStatus(
      await t.request(tokens.sa_1 ?? '', { method: 'GET', url: `/api/sales-history/agent/${ids.sa_1}?${deep}` }),
      404,
    );
    expectStatus(
      await t.request(t.adminToken, {
        method: 'GET',
        url: `/api/sales-history/filter?role=agent&userId=${ids.sa_1}&${deep}`,
      }),
      404,
    );
  });
});
