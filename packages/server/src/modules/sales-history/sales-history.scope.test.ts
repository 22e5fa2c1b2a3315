import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { configureWinners, listGames, playGame, sortedIds } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * Who reads which games (docs/product/roles-and-scope.md#scope): admin all; superagent, agent and user their scope,
 * judged by the hierarchy recorded with each game; anything else is 404 as if it did not exist.
 *   S1 ─ A1 ─ U1, U2        S2 ─ A3 ─ U5
 *      ├ A2 ─ U3
 *      └ U4
 */

let t: TestApp;
let h: Hierarchy;
type Player = 'U1' | 'U2' | 'U3' | 'U4' | 'U5';
const PLAYERS: Player[] = ['U1', 'U2', 'U3', 'U4', 'U5'];
const games: Record<Player, SaleDetail[]> = { U1: [], U2: [], U3: [], U4: [], U5: [] };

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '30', position: 2 },
  ]);
  for (const [index, key] of PLAYERS.entries()) {
    await fund(t, h[key].id, '1000.00');
    // Two games each with different outcomes, so the commission totals tell games apart.
    games[key].push(await playGame(t, h[key], { numbers: [1, 2, 3] }));
    games[key].push(
      await playGame(t, h[key], {
        numbers: [1, 2, 3, 4].slice(0, 2 + (index % 3)),
        bet: `${index + 1}.00`,
      }),
    );
  }
});
afterAll(() => t.close());

const of = (...players: Player[]) => players.flatMap((p) => games[p]);
const idsOf = (...players: Player[]) => sortedIds(of(...players).map((g) => g.id));
const commissionOf = (...players: Player[]) =>
  formatCents(of(...players).reduce((sum, g) => sum + Math.round(Number(g.commission) * 100), 0));

/** A list call must answer exactly these players' games, newest first, with the totals of the set. */
async function expectGames(caller: Member, url: string, players: Player[]) {
  const list = await listGames(t, caller.token, url);
  expect(sortedIds(list.ids), `${caller.username} ${url}`).toEqual(idsOf(...players));
  expect([...list.ids].sort((a, b) => b - a)).toEqual(list.ids);
  expect(list.total).toBe(list.ids.length);
  expect(list.totalCommission).toBe(commissionOf(...players));
  return list;
}

async function expectNotFound(caller: Member, url: string, message = 'User not found') {
  const response = await t.request(caller.token, { method: 'GET', url });
  expect(response.statusCode, `${caller.username} ${url}: ${response.body}`).toBe(404);
  expect(response.json()).toEqual({ code: 'NOT_FOUND', message, requestId: expect.any(String) });
}

describe('GET /api/sales-history/{superagent,agent,user}/{id}', () => {
  it('needs a token', async () => {
    expectStatus(await t.request(null, { method: 'GET', url: `/api/sales-history/user/${h.U1.id}` }), 401);
  });

  it('admin reads anyone’s', async () => {
    await expectGames(h.admin, `/api/sales-history/superagent/${h.S1.id}`, ['U1', 'U2', 'U3', 'U4']);
    await expectGames(h.admin, `/api/sales-history/superagent/${h.S2.id}`, ['U5']);
    await expectGames(h.admin, `/api/sales-history/agent/${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.admin, `/api/sales-history/agent/${h.A3.id}`, ['U5']);
    await expectGames(h.admin, `/api/sales-history/user/${h.U4.id}`, ['U4']);
  });

  it('superagent S1: itself, its agents and all its users; S2’s people are 404', async () => {
    await expectGames(h.S1, `/api/sales-history/superagent/${h.S1.id}`, ['U1', 'U2', 'U3', 'U4']);
    await expectGames(h.S1, `/api/sales-history/agent/${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.S1, `/api/sales-history/agent/${h.A2.id}`, ['U3']);
    await expectGames(h.S1, `/api/sales-history/user/${h.U3.id}`, ['U3']);
    await expectGames(h.S1, `/api/sales-history/user/${h.U4.id}`, ['U4']);
    await expectNotFound(h.S1, `/api/sales-history/superagent/${h.S2.id}`);
    await expectNotFound(h.S1, `/api/sales-history/agent/${h.A3.id}`);
    await expectNotFound(h.S1, `/api/sales-history/user/${h.U5.id}`);
    await expectGames(h.S2, `/api/sales-history/superagent/${h.S2.id}`, ['U5']);
    await expectNotFound(h.S2, `/api/sales-history/superagent/${h.S1.id}`);
    await expectNotFound(h.S2, `/api/sales-history/agent/${h.A1.id}`);
  });

  it('superagent S1 narrows its list with agentId or userId', async () => {
    const base = `/api/sales-history/superagent/${h.S1.id}`;
    await expectGames(h.S1, `${base}?agentId=${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.S1, `${base}?agentId=${h.A2.id}`, ['U3']);
    await expectGames(h.S1, `${base}?userId=${h.U1.id}`, ['U1']);
    await expectGames(h.S1, `${base}?userId=${h.U4.id}`, ['U4']);
    await expectGames(h.S1, `${base}?agentId=${h.A1.id}&userId=${h.U2.id}`, ['U2']);
    await expectGames(h.S1, `${base}?agentId=${h.A1.id}&userId=${h.U3.id}`, []);
    // A filter cannot reach outside the scope.
    await expectGames(h.S1, `${base}?agentId=${h.A3.id}`, []);
    await expectGames(h.S1, `${base}?userId=${h.U5.id}`, []);
    await expectGames(h.S1, `/api/sales-history/agent/${h.A1.id}?userId=${h.U1.id}`, ['U1']);
  });

  it('agent A1: itself and its direct users only', async () => {
    await expectGames(h.A1, `/api/sales-history/agent/${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.A1, `/api/sales-history/user/${h.U1.id}`, ['U1']);
    await expectGames(h.A1, `/api/sales-history/agent/${h.A1.id}?userId=${h.U2.id}`, ['U2']);
    await expectNotFound(h.A1, `/api/sales-history/agent/${h.A2.id}`);
    await expectNotFound(h.A1, `/api/sales-history/agent/${h.A3.id}`);
    await expectNotFound(h.A1, `/api/sales-history/user/${h.U3.id}`);
    await expectNotFound(h.A1, `/api/sales-history/user/${h.U4.id}`);
    await expectNotFound(h.A1, `/api/sales-history/user/${h.U5.id}`);
    await expectNotFound(h.A1, `/api/sales-history/superagent/${h.S1.id}`);
    await expectGames(h.A2, `/api/sales-history/agent/${h.A2.id}`, ['U3']);
    await expectGames(h.A3, `/api/sales-history/agent/${h.A3.id}`, ['U5']);
  });

  it('user U1: its own games only', async () => {
    await expectGames(h.U1, `/api/sales-history/user/${h.U1.id}`, ['U1']);
    await expectGames(h.U1, `/api/sales-history/user/${h.U1.id}?userId=${h.U2.id}`, []);
    await expectNotFound(h.U1, `/api/sales-history/user/${h.U2.id}`);
    await expectNotFound(h.U1, `/api/sales-history/user/${h.U5.id}`);
    await expectNotFound(h.U1, `/api/sales-history/agent/${h.A1.id}`);
    await expectNotFound(h.U1, `/api/sales-history/superagent/${h.S1.id}`);
  });

  it('the person must be of the role in the path', async () => {
    await expectNotFound(h.admin, `/api/sales-history/agent/${h.U1.id}`);
    await expectNotFound(h.admin, `/api/sales-history/user/${h.A1.id}`);
    await expectNotFound(h.admin, `/api/sales-history/superagent/${h.A1.id}`);
    await expectNotFound(h.admin, `/api/sales-history/user/${h.admin.id}`);
    await expectNotFound(h.S1, `/api/sales-history/user/${h.A1.id}`);
    await expectNotFound(h.admin, '/api/sales-history/user/999999');
  });

  it('an item carries the player and the parent as of the game', async () => {
    const list = await listGames(t, h.S1.token, `/api/sales-history/user/${h.U4.id}`);
    expect(list.items[0]).toMatchObject({
      userId: h.U4.id,
      user: { id: h.U4.id, username: h.U4.username, fullName: h.U4.fullName, parent: { id: h.S1.id } },
    });
    const agentList = await listGames(t, h.A1.token, `/api/sales-history/user/${h.U2.id}`);
    expect(agentList.items[0]?.user.parent).toEqual({ id: h.A1.id, fullName: h.A1.fullName });
  });
});

describe('GET /api/sales-history/{id}', () => {
  const read = (caller: Member, id: number) =>
    t.request(caller.token, { method: 'GET', url: `/api/sales-history/${id}` });

  const READERS: Record<Player, (keyof Hierarchy)[]> = {
    U1: ['admin', 'S1', 'A1', 'U1'],
    U2: ['admin', 'S1', 'A1', 'U2'],
    U3: ['admin', 'S1', 'A2', 'U3'],
    U4: ['admin', 'S1', 'U4'],
    U5: ['admin', 'S2', 'A3', 'U5'],
  };
  const EVERYONE: (keyof Hierarchy)[] = ['admin', 'S1', 'S2', 'A1', 'A2', 'A3', 'U1', 'U2', 'U3', 'U4', 'U5'];

  it.each(PLAYERS)('a game of %s is read by its scope and is "Game Not Found" to everyone else', async (player) => {
    const game = games[player][0]!;
    for (const key of EVERYONE) {
      const response = await read(h[key], game.id);
      if (READERS[player].includes(key)) {
        expectStatus(response, 200);
        expect(response.json()).toEqual(game);
      } else {
        expect(response.statusCode, `${key} reading ${player}'s game`).toBe(404);
        expect(response.json()).toEqual({
          code: 'NOT_FOUND',
          message: MESSAGES.gameNotFound,
          requestId: expect.any(String),
        });
      }
    }
  });

  it('an unknown id is "Game Not Found"; a bad id is 400', async () => {
    const response = await read(h.admin, 999_999);
    expectStatus(response, 404);
    expect(response.json()).toMatchObject({ message: MESSAGES.gameNotFound });
    expectStatus(await read(h.admin, 0), 400);
  });
});

describe('GET /api/sales-history/filter (admin)', () => {
  const filter = '/api/sales-history/filter';

  it('no filter: every game', async () => {
    await expectGames(h.admin, filter, PLAYERS);
  });

  it('role + userId pick a superagent’s, an agent’s or a user’s games', async () => {
    await expectGames(h.admin, `${filter}?role=superagent&userId=${h.S1.id}`, ['U1', 'U2', 'U3', 'U4']);
    await expectGames(h.admin, `${filter}?role=superagent&userId=${h.S2.id}`, ['U5']);
    await expectGames(h.admin, `${filter}?role=agent&userId=${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.admin, `${filter}?role=user&userId=${h.U1.id}`, ['U1']);
    await expectNotFound(h.admin, `${filter}?role=agent&userId=${h.U1.id}`);
  });

  it('userId or agentId alone', async () => {
    await expectGames(h.admin, `${filter}?userId=${h.U3.id}`, ['U3']);
    await expectGames(h.admin, `${filter}?agentId=${h.A1.id}`, ['U1', 'U2']);
    await expectGames(h.admin, `${filter}?agentId=${h.A3.id}`, ['U5']);
  });

  it('an empty result has totals of zero', async () => {
    await expectGames(h.admin, `${filter}?userId=${h.A1.id}`, []);
    const list = await listGames(t, h.admin.token, `${filter}?userId=${h.A1.id}`);
    expect(list.totalCommission).toBe('0.00');
  });

  it('bad queries are 400', async () => {
    for (const query of ['role=admin', 'limit=0', 'limit=1001', 'offset=-1', 'from=yesterday', 'userId=x', 'foo=1']) {
      const response = await t.request(t.adminToken, { method: 'GET', url: `${filter}?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('anyone else is 403, whatever the query', async () => {
    for (const member of [h.S1, h.A1, h.U1]) {
      for (const url of [filter, `${filter}?role=user&userId=${member.id}`, `${filter}?limit=nonsense`]) {
        const response = await t.request(member.token, { method: 'GET', url });
        expectStatus(response, 403);
        expect(response.json()).toEqual({
          code: 'FORBIDDEN',
          message: SERVER_MESSAGES.forbidden,
          requestId: expect.any(String),
        });
      }
    }
  });
});

/**
 * Games keep the hierarchy of the day they were played: after a player moves, the old parent keeps
 * the old games and the new parent sees only what was played under it (lists and reads agree).
 */
describe('a player who moves keeps their games with the old hierarchy', () => {
  let u1New: SaleDetail;
  let u4New: SaleDetail;

  beforeAll(async () => {
    const move = async (member: Member, parent: Member) => {
      const response = await t.request(t.adminToken, {
        method: 'PUT',
        url: `/api/users/${member.id}`,
        payload: { parentId: parent.id },
      });
      expectStatus(response, 200);
    };
    await move(h.U1, h.A2);
    await move(h.U4, h.A3);
    u1New = await playGame(t, h.U1, { numbers: [5, 6] });
    u4New = await playGame(t, h.U4, { numbers: [5, 6] });
  });

  it('the new agent sees only the games played under it', async () => {
    const list = await listGames(t, h.A2.token, `/api/sales-history/user/${h.U1.id}`);
    expect(list.ids).toEqual([u1New.id]);
    expect(list.total).toBe(1);
    expect(list.totalCommission).toBe(u1New.commission);
    expect(sortedIds((await listGames(t, h.A2.token, `/api/sales-history/agent/${h.A2.id}`)).ids)).toEqual(
      sortedIds([...idsOf('U3'), u1New.id]),
    );
    for (const old of games.U1) {
      expectStatus(await t.request(h.A2.token, { method: 'GET', url: `/api/sales-history/${old.id}` }), 404);
    }
  });

  it('the old agent keeps the old games', async () => {
    await expectGames(h.A1, `/api/sales-history/agent/${h.A1.id}`, ['U1', 'U2']);
    for (const old of games.U1) {
      expectStatus(await t.request(h.A1.token, { method: 'GET', url: `/api/sales-history/${old.id}` }), 200);
    }
    await expectNotFound(h.A1, `/api/sales-history/user/${h.U1.id}`);
  });

  it('another superagent never sees the games played under the first', async () => {
    const list = await listGames(t, h.S2.token, `/api/sales-history/user/${h.U4.id}`);
    expect(list.ids).toEqual([u4New.id]);
    expect(list.totalCommission).toBe(u4New.commission);
    expect(sortedIds((await listGames(t, h.S2.token, `/api/sales-history/superagent/${h.S2.id}`)).ids)).toEqual(
      sortedIds([...idsOf('U5'), u4New.id]),
    );
    const s1 = await listGames(t, h.S1.token, `/api/sales-history/superagent/${h.S1.id}`);
    expect(sortedIds(s1.ids)).toEqual(sortedIds([...idsOf('U1', 'U2', 'U3', 'U4'), u1New.id]));
  });

  it('the player and the admin see all of the player’s games, each with its parent of the day', async () => {
    const own = await listGames(t, h.U1.token, `/api/sales-history/user/${h.U1.id}`);
    expect(sortedIds(own.ids)).toEqual(sortedIds([...idsOf('U1'), u1New.id]));
    const parents = Object.fromEntries(own.items.map((item) => [item.id, item.user.parent?.id]));
    expect(parents).toEqual({ [games.U1[0]!.id]: h.A1.id, [games.U1[1]!.id]: h.A1.id, [u1New.id]: h.A2.id });
    const admin = await listGames(t, h.admin.token, `/api/sales-history/filter?role=user&userId=${h.U4.id}`);
    expect(sortedIds(admin.ids)).toEqual(sortedIds([...idsOf('U4'), u4New.id]));
  });
});
