import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Game } from '@lot/domain/schemas/games';
import type { Notification, Notifications } from '@lot/domain/schemas/notifications';
import { configureWinners, drawPosition, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The bell (decision 022) on the shared hierarchy (S1 ─ A1 ─ U1 …, S2 ─ A3 ─ U5): each caller
 * hears of money that reached them, was taken back from them or taken off by an admin's correction, of games voided in their record
 * scope by someone else, and of failed sign-ins on their own account; nothing older than 7 days
 * and nothing of anyone else.
 */

let t: TestApp;
let h: Hierarchy;
let voided: Game;
let oldTopUp: number;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '20.00', position: 2 },
  ]);
  await fund(t, h.A1.id, '300.00');
  await fund(t, h.U1.id, '100.00');
  oldTopUp = (await fund(t, h.U1.id, '7.00')).transaction.id;
  await t.database.db.execute(
    sql`UPDATE transactions SET created_at = now() - interval '8 days' WHERE id = ${oldTopUp}`,
  );
  expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U1.id, amount: '25.00' }), 200);
  expectStatus(await money(t, h.A1.token, 'take-back', { userId: h.U1.id, amount: '5.00', reason: 'Wrong shop' }), 200);
  // The admin corrects U1's balance: news for U1 like a top-up (docs/product/money.md#corrections).
  expectStatus(
    await money(t, t.adminToken, 'decrease', { userId: h.U1.id, amount: '1.50', description: 'Counted twice' }),
    200,
  );
  // After U1's first draw only its upline may void the game; A1 does: news for U1 and the rest of
  // the upline, not for A1.
  const game = await openGame(t, h.U1, { numbers: [1, 2, 3] });
  expectStatus(await drawPosition(t, h.U1.token, game.id, 1), 200);
  const response = await voidCall(t, h.A1.token, game.id, 'Power cut');
  expectStatus(response, 200);
  voided = response.json<Game>();
  // Someone tries U1's password from afar.
  const failed = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { username: 'USER_ONE', password: 'not-it' },
    remoteAddress: '203.0.113.9',
  });
  expectStatus(failed, 401);
});
afterAll(() => t?.close());

async function bell(caller: Member): Promise<Notification[]> {
  const response = await t.request(caller.token, { method: 'GET', url: '/api/notifications' });
  expectStatus(response, 200);
  return response.json<Notifications>().items;
}

describe(`GET /api/notifications (${TEST_DB})`, () => {
  it("lists the caller's own events of the last 7 days, newest first", async () => {
    const items = await bell(h.U1);
    expect(items.map((item) => item.kind)).toEqual([
      'signinFailed',
      'voided',
      'corrected',
      'takenBack',
      'received',
      'received',
    ]);
    const [failure, voidedGame, correction, takeBack, transfer, topUp] = items;
    expect(failure).toMatchObject({ kind: 'signinFailed', address: '203.0.113.9' });
    expect(voidedGame).toMatchObject({
      kind: 'voided',
      code: voided.code,
      gameNumber: voided.number,
      reason: 'Power cut',
    });
    expect(correction).toMatchObject({
      kind: 'corrected',
      amount: '1.50',
      reason: 'Counted twice',
      by: { id: h.admin.id },
    });
    expect(takeBack).toMatchObject({ kind: 'takenBack', amount: '5.00', reason: 'Wrong shop', by: { id: h.A1.id } });
    expect(transfer).toMatchObject({ kind: 'received', type: 'transfer', amount: '25.00', from: { id: h.A1.id } });
    expect(topUp).toMatchObject({ kind: 'received', type: 'topup', amount: '100.00', from: { id: h.admin.id } });
    const times = items.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    // The top-up of 8 days ago is not news any more.
    expect(items.some((item) => item.key === `received-${oldTopUp}`)).toBe(false);
  });

  it('tells everyone whose scope holds a voided game but the one who voided it, and nobody else', async () => {
    const heard = async (member: Member) =>
      (await bell(member)).some((item) => item.kind === 'voided' && item.code === voided.code);
    expect(await heard(h.admin)).toBe(true);
    expect(await heard(h.S1)).toBe(true);
    expect(await heard(h.U1)).toBe(true);
    // One's own void is no news.
    expect(await heard(h.A1)).toBe(false);
    for (const member of [h.S2, h.A2, h.A3, h.U2, h.U5]) expect(await heard(member), member.username).toBe(false);
    const item = (await bell(h.S1)).find((i) => i.kind === 'voided');
    expect(item).toMatchObject({ reason: 'Power cut', player: { id: h.U1.id, username: 'user_one' } });
  });

  it("never shows someone else's money or failed sign-ins", async () => {
    const a1 = await bell(h.A1);
    // A1 received its top-up; what it sent and took back reached U1 or A1, not someone else.
    expect(a1.filter((i) => i.kind === 'received').map((i) => i.kind === 'received' && i.amount)).toEqual(['300.00']);
    expect(a1.some((i) => i.kind === 'takenBack' || i.kind === 'corrected' || i.kind === 'signinFailed')).toBe(false);
    // The admin who made the correction hears nothing of it.
    expect((await bell(h.admin)).some((i) => i.kind === 'corrected')).toBe(false);
    expect(await bell(h.U2)).toEqual([]);
    expect(await bell(h.S2)).toEqual([]);
  });

  it('asks for a session and takes no parameters', async () => {
    expectStatus(await t.request(null, { method: 'GET', url: '/api/notifications' }), 401);
    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/notifications?limit=5' }), 400);
  });
});
