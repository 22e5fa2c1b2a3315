import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Game } from '@lot/domain/schemas/games';
import type { Notifications } from '@lot/domain/schemas/notifications';
import type { Activity } from '@lot/domain/schemas/reports';
import type { CurrentShift, Shift, ShiftReport } from '@lot/domain/schemas/shifts';
import { queryRows } from '../../db/client.ts';
import { configureWinners, drawPosition, expectNoEffect, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * A void after a draw that named a winner (issue 44, decision 094): refused without `afterWinner`
 * and nothing changes; with it the game is voided, its audit row keeps what was announced, the admin's
 * bell says so, the upline's dashboard counts it, and the shop's open shift lists the bets it hands
 * back as a refund line.
 */

let t: TestApp;
let h: Hierarchy;
let shift: Shift;
let game: Game;

// Every number of 1..4 is chosen: the first draw names a winner of 60 % of the 40.00 pool.
const everyNumber = { numbers: [1, 2, 3, 4], start: 1, end: 4, bet: '10.00' };

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '60', position: 1 },
    { percent: '40', position: 2 },
  ]);
  for (const member of [h.U1, h.U5]) await fund(t, member.id, '100.00');
  const opened = await t.request(h.U1.token, {
    method: 'POST',
    url: '/api/shifts',
    payload: { openingFloat: '50.00' },
  });
  expectStatus(opened, 201);
  shift = opened.json<Shift>();
  game = await openGame(t, h.U1, everyNumber);
  expectStatus(await drawPosition(t, h.U1.token, game.id, 1), 200);
}, 60_000);
afterAll(() => t?.close());

async function get<T>(member: Member, url: string): Promise<T> {
  const response = await t.request(member.token, { method: 'GET', url });
  expectStatus(response, 200);
  return response.json<T>();
}

describe(`a void after a winning draw (${TEST_DB})`, () => {
  it('is refused without afterWinner, naming why, and changes nothing; a non-boolean is a 400', async () => {
    await expectNoEffect(t, () => voidCall(t, h.A1.token, game.id, 'Power cut', false), 422, {
      code: 'WINNER_ANNOUNCED',
      message: expect.stringContaining('already named a winner') as unknown,
      fieldErrors: { afterWinner: expect.stringContaining('already named a winner') as unknown },
    });
    await expectNoEffect(t, () => voidCall(t, h.A1.token, game.id, 'Power cut', 'yes'), 400);
    const still = await get<Game>(h.U1, `/api/games/${game.id}`);
    expect(still.status).toBe('drawing');
  });

  it('with afterWinner: voided, audited with the prizes announced, told to the admin, counted, refunded on the shift', async () => {
    const response = await voidCall(t, h.A1.token, game.id, 'The display showed the wrong game', true);
    expectStatus(response, 200);
    expect(response.json<Game>()).toMatchObject({ status: 'voided', voidReason: 'The display showed the wrong game' });

    const [audit] = await queryRows<{ details: { afterWinner?: unknown } }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'game.voided' AND target_id = ${game.id}`,
    );
    expect(audit?.details.afterWinner).toEqual({ winners: 1, prizes: '24.00' });

    // The admin's bell: the void, marked as after a winner (A1, who voided it, hears nothing of it).
    const bell = await get<Notifications>(h.admin, '/api/notifications');
    expect(bell.items.find((item) => item.kind === 'voided' && item.code === game.code)).toMatchObject({
      prizesAnnounced: '24.00',
      reason: 'The display showed the wrong game',
    });
    const own = await get<Notifications>(h.A1, '/api/notifications');
    expect(own.items.some((item) => item.kind === 'voided' && item.code === game.code)).toBe(false);

    // The upline's dashboards (the activity report's flagged games): counted in scope, not outside it.
    const flagged = async (member: Member) =>
      (await get<Activity>(member, '/api/reports/activity?days=30')).flaggedGames;
    expect(await flagged(h.A1)).toMatchObject({ voided: 1, voidedAfterWinner: 1 });
    expect(await flagged(h.admin)).toMatchObject({ voided: 1, voidedAfterWinner: 1 });
    expect(await flagged(h.A3)).toMatchObject({ voided: 0, voidedAfterWinner: 0 });

    // The shop's X report: the bets handed back are a line, not counted (never taken into the figure).
    const { report } = await get<CurrentShift>(h.U1, '/api/shifts/current');
    const x = report as ShiftReport;
    expect(x.refunds).toMatchObject([{ gameId: game.id, number: game.number, code: game.code, amount: '40.00' }]);
    expect(x.totals).toMatchObject({ voidedGames: 1, betsRefunded: '40.00', betsCollected: '0.00' });
    expect(x.expectedCash).toBe('50.00');
    // The Z report keeps the line.
    const closed = await t.request(h.U1.token, {
      method: 'POST',
      url: `/api/shifts/${shift.id}/close`,
      payload: { countedCash: '50.00' },
    });
    expectStatus(closed, 200);
    expect(closed.json<ShiftReport>().refunds).toMatchObject([{ gameId: game.id, amount: '40.00' }]);
  });

  it('a void before any winner needs no afterWinner and is not counted after a winner', async () => {
    const open = await openGame(t, h.U5, { numbers: [1, 2], start: 1, end: 4, bet: '1.00' });
    expectStatus(await voidCall(t, h.U5.token, open.id, 'Changed my mind', false), 200);
    expect(await get<Activity>(h.admin, '/api/reports/activity?days=30')).toMatchObject({
      flaggedGames: { voided: 1, voidedAfterWinner: 1 },
    });
  });
});
