import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Game } from '@lot/domain/schemas/games';
import type { SearchResult } from '@lot/domain/schemas/search';
import { configureWinners, drawAll, openGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The header's search (decision 022) on the shared hierarchy
 *   S1 ─ A1 ─ U1, U2, U6 (inactive)
 *      ├ A2 ─ U3
 *      └ U4
 *   S2 ─ A3 ─ U5
 * with a settled game of U1, U3, U4 and U5 each: for every caller and every person and game, the
 * search finds it exactly when the caller's scope holds it; bad searches are a 400.
 */

let t: TestApp;
let h: Hierarchy;
type Key = Exclude<keyof Hierarchy, 'admin'>;
const games: Partial<Record<Key, Game>> = {};

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50.00', position: 1 }]);
  for (const key of ['U1', 'U3', 'U4', 'U5'] as const) {
    await fund(t, h[key].id, '100.00');
    games[key] = await drawAll(t, h[key], await openGame(t, h[key], { numbers: [1, 2, 3] }));
  }
});
afterAll(() => t?.close());

async function search(caller: Member, q: string): Promise<SearchResult> {
  const response = await t.request(caller.token, { method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
  expectStatus(response, 200);
  return response.json<SearchResult>();
}

/** Who each caller may find (docs/product/roles-and-scope.md#scope); the inactive U6 is live. */
const SCOPE: Record<'admin' | 'S1' | 'A1' | 'U1', Key[]> = {
  admin: ['S1', 'S2', 'A1', 'A2', 'A3', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6'],
  S1: ['S1', 'A1', 'A2', 'U1', 'U2', 'U3', 'U4', 'U6'],
  A1: ['A1', 'U1', 'U2', 'U6'],
  U1: ['U1'],
};
/** The games each caller may read: by the hierarchy recorded with the game. */
const READABLE: Record<keyof typeof SCOPE, Key[]> = {
  admin: ['U1', 'U3', 'U4', 'U5'],
  S1: ['U1', 'U3', 'U4'],
  A1: ['U1'],
  U1: ['U1'],
};
const EVERYONE: Key[] = ['S1', 'S2', 'A1', 'A2', 'A3', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6'];

describe(`GET /api/search (${TEST_DB})`, () => {
  it('finds a person by username or full name exactly when the caller’s scope holds them', async () => {
    for (const caller of Object.keys(SCOPE) as (keyof typeof SCOPE)[]) {
      for (const key of EVERYONE) {
        const target = h[key];
        const expected = SCOPE[caller].includes(key);
        for (const q of [target.username, target.fullName, target.username.toUpperCase()]) {
          const found = (await search(h[caller], q)).people.some((p) => p.id === target.id);
          expect(found, `${caller} searching ${q}`).toBe(expected);
        }
      }
    }
  });

  it('a substring finds everyone in scope who holds it, the usernames that start with it first', async () => {
    const { people } = await search(h.S1, 'user_');
    expect(people.map((p) => p.username).sort()).toEqual(
      ['user_one', 'user_two', 'user_three', 'user_four', 'user_six'].sort(),
    );
    // "One" is in "Super One", "Agent One" and "User One"; none of them starts with it.
    expect((await search(h.admin, 'one')).people.map((p) => p.username).sort()).toEqual(
      ['agent_one', 'super_one', 'user_one'].sort(),
    );
    // Two letters match the start of the username or of a word of the full name, not the middle.
    expect((await search(h.A1, 'us')).people.map((p) => p.username)).toEqual(['user_one', 'user_six', 'user_two']);
    expect((await search(h.A1, 'ne')).people).toEqual([]);
    expect((await search(h.A1, 'tw')).people.map((p) => p.username)).toEqual(['user_two']);
    // The exact username first, then the ones that start with the text.
    expect((await search(h.admin, 'agent_one')).people[0]?.username).toBe('agent_one');
    const agents = (await search(h.admin, 'agent')).people.map((p) => p.username);
    expect(agents.slice(0, 3).sort()).toEqual(['agent_one', 'agent_three', 'agent_two']);
  });

  it('answers at most 8 people, and the pattern characters are taken literally', async () => {
    expect((await search(h.admin, 'e')).people.length).toBeLessThanOrEqual(8);
    expect((await search(h.admin, '_')).people).toEqual([]);
    expect((await search(h.admin, '%')).people).toEqual([]);
    expect((await search(h.admin, '\\')).people).toEqual([]);
    expect((await search(h.admin, 'user_')).people.length).toBe(6);
  });

  it('never finds a deleted person', async () => {
    const made = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: 'gone_soon',
        password: 'secret-pass',
        fullName: 'Gone Soon',
        role: 'user',
        parentId: h.A1.id,
      },
    });
    expectStatus(made, 201);
    const id = made.json<{ id: number }>().id;
    expect((await search(h.A1, 'gone_soon')).people.map((p) => p.id)).toEqual([id]);
    expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${id}` }), 200);
    expect((await search(h.A1, 'gone_soon')).people).toEqual([]);
    expect((await search(h.admin, 'gone_soon')).people).toEqual([]);
  });

  it('finds a game by its code or its shop’s game number exactly when the caller may read it', async () => {
    for (const caller of Object.keys(READABLE) as (keyof typeof READABLE)[]) {
      for (const [key, game] of Object.entries(games) as [Key, Game][]) {
        const expected = READABLE[caller].includes(key);
        for (const q of [game.code, String(game.number), `#${game.number}`]) {
          const found = (await search(h[caller], q)).games.find((g) => g.id === game.id);
          expect(Boolean(found), `${caller} searching ${q} (${key}'s game)`).toBe(expected);
          if (found) {
            expect(found).toMatchObject({ code: game.code, number: 1, status: 'settled', saleId: game.saleId });
            expect(found.player).toEqual({ id: h[key].id, username: h[key].username, fullName: h[key].fullName });
          }
        }
      }
    }
    // A code is matched whole or by its start: a part from its middle finds nothing.
    expect((await search(h.admin, games.U1?.code.slice(5, 15) ?? '')).games).toEqual([]);
  });

  it('keeps a game with the hierarchy it was played under', async () => {
    const game = games.U4 as Game;
    // U4 moves from S1 to S2's agent A3: S1 still reads the game, A3 does not.
    await t.database.db.execute(
      sql`UPDATE users SET parent_id = ${h.A3.id}, parent_role = 'agent' WHERE id = ${h.U4.id}`,
    );
    try {
      expect((await search(h.S1, game.code)).games.map((g) => g.id)).toEqual([game.id]);
      expect((await search(h.A3, game.code)).games).toEqual([]);
    } finally {
      await t.database.db.execute(
        sql`UPDATE users SET parent_id = ${h.S1.id}, parent_role = 'superagent' WHERE id = ${h.U4.id}`,
      );
    }
  });

  it('finds shops by name, games by the start of their code, and games by a participant’s name or phone', async () => {
    const shopEdit = await t.request(t.adminToken, {
      method: 'PUT',
      url: `/api/users/${h.U3.id}`,
      payload: { shopName: 'Corner Lotto' },
    });
    expectStatus(shopEdit, 200);
    const shop = (await search(h.S1, 'corner')).people;
    expect(shop.map((p) => [p.id, p.shopName])).toEqual([[h.U3.id, 'Corner Lotto']]);
    expect((await search(h.S1, 'lo')).people.map((p) => p.id)).toEqual([h.U3.id]);
    expect((await search(h.A1, 'corner')).people).toEqual([]);

    const game = await openGame(t, h.U3, {
      numbers: [
        { number: 1, name: 'Rosa Dimaculangan', phoneNumber: '+63 917-555-0142' },
        { number: 2, name: 'Ben Cruz', phoneNumber: '0918 222 3333' },
      ],
    });
    const rosa = { name: 'Rosa Dimaculangan', phoneNumber: '+63 917-555-0142' };
    const found = async (caller: Member, q: string) => (await search(caller, q)).games.find((g) => g.id === game.id);
    for (const q of ['dimacul', 'ROSA D', '5550142', '917 555', '+63917']) {
      expect((await found(h.admin, q))?.participant, q).toEqual(rosa);
    }
    expect((await found(h.admin, 'cruz'))?.participant).toEqual({ name: 'Ben Cruz', phoneNumber: '0918 222 3333' });
    // In the hierarchy the game was played under only.
    expect((await found(h.A2, 'rosa'))?.participant).toEqual(rosa);
    expect((await found(h.U3, 'rosa'))?.participant).toEqual(rosa);
    expect(await found(h.A1, 'rosa')).toBeUndefined();
    expect(await found(h.U1, '5550142')).toBeUndefined();
    // Too short to search by: two letters of a name, three digits of a phone, three characters of a code.
    expect(await found(h.admin, 'ro')).toBeUndefined();
    expect(await found(h.admin, '014')).toBeUndefined();
    expect(await found(h.admin, game.code.slice(0, 3))).toBeUndefined();
    // A code's start finds the game (no participant named), for whoever may read it.
    expect(await found(h.S1, game.code.slice(0, 6))).toMatchObject({ code: game.code, participant: null });
    expect(await found(h.A1, game.code.slice(0, 6))).toBeUndefined();
  });

  it('refuses an empty, blank, missing, too long or doubled search and an unknown parameter with a clear 400', async () => {
    const cases: [string, string][] = [
      ['/api/search?q=', 'Type something to search for'],
      ['/api/search?q=%20%20', 'Type something to search for'],
      ['/api/search', 'q is required'],
      [`/api/search?q=${'a'.repeat(65)}`, 'A search is at most 64 characters'],
    ];
    for (const [url, message] of cases) {
      const response = await t.request(h.admin.token, { method: 'GET', url });
      expectStatus(response, 400);
      const body = response.json<{ message: string; code: string; fieldErrors?: Record<string, string> }>();
      expect(body.code, url).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(body), url).toContain(message);
    }
    for (const url of ['/api/search?q=a&q=b', '/api/search?q=a&limit=5', '/api/search?q=%00']) {
      const response = await t.request(h.admin.token, { method: 'GET', url });
      expectStatus(response, 400);
    }
    expectStatus(await t.request(h.admin.token, { method: 'GET', url: `/api/search?q=${'a'.repeat(64)}` }), 200);
  });

  it('asks for a session', async () => {
    expectStatus(await t.request(null, { method: 'GET', url: '/api/search?q=user' }), 401);
  });
});
