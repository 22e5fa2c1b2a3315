import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game } from '@lot/domain/schemas/games';
import type { Notifications } from '@lot/domain/schemas/notifications';
import type { DrawRandomness } from '@lot/domain/schemas/randomness';
import { queryRows } from '../../db/client.ts';
import { verifyAudit } from '../audit/audit-chain.ts';
import { configureWinners, expectNoEffect, openGameCall, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * DRAW_BEACON=auto's sticky rule (decision 061): LOT-DRAW-1 while the beacon is down only until the
 * database has opened a LOT-DRAW-2 game; after that, only once an admin turns LOT-DRAW-1 on — an
 * audited change the admins' bells show. The admin's card counts LOT-DRAW-1 games per shop. The
 * local test beacon is made unreachable (it drops every connection); the heartbeat runs every 100 ms.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp({ beacon: 'auto', beaconHeartbeatMs: 100 });
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1, name: 'First' }]);
  for (const member of [h.U1, h.U4]) await fund(t, member.id, '100.00');
});
afterAll(async () => {
  const audit = await verifyAudit(t.database.db);
  expect(audit.ok, JSON.stringify(audit.problems)).toBe(true);
  await t.close();
});

let serverRandomnessGame: Game;
const openBody = { startRange: 1, endRange: 10, betAmount: '1.00' };
const URL = '/api/admin/draw-randomness';

const read = async (token = t.adminToken) => {
  const response = await t.request(token, { method: 'GET', url: URL });
  expectStatus(response, 200);
  return response.json<DrawRandomness>();
};
const allow = (token: string, payload: Record<string, unknown>) =>
  t.request(token, { method: 'PUT', url: URL, payload });

/** Turns the test beacon down or up and waits until this process has noticed (at most 5 s). */
async function beacon(up: boolean): Promise<void> {
  t.beacon?.setFailing(up ? 'none' : 'down');
  const deadline = Date.now() + 5_000;
  while ((await read()).beaconUp !== up) {
    if (Date.now() > deadline) throw new Error(`the beacon did not turn ${up ? 'up' : 'down'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens a game as `member` (201) and discards it again, returning it as it opened. */
async function openAndDiscard(member: Member): Promise<Game> {
  const opened = await openGameCall(t, member.token, openBody);
  expectStatus(opened, 201);
  const game = opened.json<Game>();
  expectStatus(await voidCall(t, member.token, game.id, 'test'), 200);
  return game;
}

const changes = async () =>
  (
    await queryRows<{ actor_id: number; details: { allowed: boolean; before: boolean } }>(
      t.database.db,
      sql`SELECT actor_id, details FROM audit_log WHERE action = 'settings.server_randomness' ORDER BY id`,
    )
  ).map((row) => ({ actor: row.actor_id, ...row.details }));

const bell = async (member: { token: string }) => {
  const response = await t.request(member.token, { method: 'GET', url: '/api/notifications' });
  expectStatus(response, 200);
  return response.json<Notifications>().items.filter((item) => item.kind === 'serverRandomness');
};

describe(`DRAW_BEACON=auto is sticky once LOT-DRAW-2 was played (${TEST_DB})`, () => {
  it('a database that never opened a LOT-DRAW-2 game falls back to LOT-DRAW-1 while the beacon is down', async () => {
    await beacon(false);
    expect(await read()).toMatchObject({ mode: 'auto', lotDraw2Played: false, newGames: 'LOT-DRAW-1' });
    expect((await openAndDiscard(h.U1)).protocol).toBe('LOT-DRAW-1');
  });

  it('after one LOT-DRAW-2 game, a beacon that is down refuses new games (503), changing nothing', async () => {
    await beacon(true);
    expect((await openAndDiscard(h.U1)).protocol).toBe('LOT-DRAW-2');
    await beacon(false);
    expect(await read()).toMatchObject({
      lotDraw2Played: true,
      serverRandomnessAllowed: false,
      changed: null,
      newGames: 'refused',
    });
    await expectNoEffect(t, () => openGameCall(t, h.U1.token, openBody), 503, {
      message: SERVER_MESSAGES.beaconUnreachable,
    });
  });

  it('only an admin reads or changes the permission; bad input is refused; neither writes anything', async () => {
    for (const member of [h.S1, h.A1, h.U1]) {
      await expectNoEffect(t, () => t.request(member.token, { method: 'GET', url: URL }), 403);
      await expectNoEffect(t, () => allow(member.token, { allowed: true }), 403);
    }
    await expectNoEffect(t, () => t.request(null, { method: 'PUT', url: URL, payload: { allowed: true } }), 401);
    for (const body of [{}, { allowed: 'yes' }, { allowed: true, mode: 'off' }])
      await expectNoEffect(t, () => allow(t.adminToken, body), 400);
    expect(await changes()).toEqual([]);
    expect((await read()).newGames).toBe('refused');
  });

  it('an admin turns LOT-DRAW-1 on: audited, in the admins’ bells, and games open as LOT-DRAW-1 again', async () => {
    const turnedOn = await allow(t.adminToken, { allowed: true });
    expectStatus(turnedOn, 200);
    expect(turnedOn.json<DrawRandomness>()).toMatchObject({
      serverRandomnessAllowed: true,
      newGames: 'LOT-DRAW-1',
      changed: { by: { username: 'admin' } },
    });
    // The same again writes nothing.
    expectStatus(await allow(t.adminToken, { allowed: true }), 200);
    const admin = (await read()).changed?.by?.id;
    expect(await changes()).toEqual([{ actor: admin, allowed: true, before: false }]);

    expect(await bell({ token: t.adminToken })).toMatchObject([{ allowed: true, by: { username: 'admin' } }]);
    expect(await bell(h.S1)).toEqual([]);
    expect(await bell(h.U1)).toEqual([]);

    const opened = await openGameCall(t, h.U4.token, openBody);
    expectStatus(opened, 201);
    serverRandomnessGame = opened.json<Game>();
    expect(serverRandomnessGame.protocol).toBe('LOT-DRAW-1');
  });

  it('the card counts LOT-DRAW-1 games per shop (open, drawing or settled; not voided or discarded)', async () => {
    // U4's open game counts; U1's LOT-DRAW-1 game was discarded.
    expect((await read()).serverRandomnessByShop).toEqual([
      { shop: { id: h.U4.id, username: h.U4.username, fullName: expect.any(String) }, games: 1 },
    ]);
  });

  it('turned off again: refused again, and the beacon back means LOT-DRAW-2', async () => {
    expectStatus(await voidCall(t, h.U4.token, serverRandomnessGame.id, 'test'), 200);
    expectStatus(await allow(t.adminToken, { allowed: false }), 200);
    expect((await changes()).map((change) => change.allowed)).toEqual([true, false]);
    expect((await bell({ token: t.adminToken })).map((item) => item.allowed)).toEqual([false, true]);
    await expectNoEffect(t, () => openGameCall(t, h.U4.token, openBody), 503, {
      message: SERVER_MESSAGES.beaconUnreachable,
    });
    await beacon(true);
    expect((await read()).newGames).toBe('LOT-DRAW-2');
    expect((await openAndDiscard(h.U4)).protocol).toBe('LOT-DRAW-2');
  });
});
