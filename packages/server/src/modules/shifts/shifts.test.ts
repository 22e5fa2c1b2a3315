import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game } from '@lot/domain/schemas/games';
import type {
  CurrentShift,
  Shift,
  ShiftList,
  ShiftMovement,
  ShiftReport,
  ShiftSummary,
} from '@lot/domain/schemas/shifts';
import { queryRows } from '../../db/client.ts';
import { checkpointKey, takeCheckpoint } from '../audit/checkpoint.ts';
import { csvRows } from '../../test/csv.ts';
import { configureWinners, drawAll, freeze, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { balanceOf, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * Shifts and their X/Z reports (docs/product/shifts.md, decision 039): the expected cash, the Z
 * numbers, a closed shift kept as it was, and who may do what.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  // Every number of the range 1..4 is chosen, so both positions win: 60 % and 40 % of the pool.
  await configureWinners(t, null, [
    { percent: '60', position: 1 },
    { percent: '40', position: 2 },
  ]);
  for (const member of [h.U1, h.U2, h.U3, h.U4, h.U5]) await fund(t, member.id, '1000.00');
}, 120_000);
afterAll(() => t?.close());

const everyNumber = { numbers: [1, 2, 3, 4], start: 1, end: 4, bet: '10.00' };

const open = (member: Member, openingFloat: unknown) =>
  t.request(member.token, { method: 'POST', url: '/api/shifts', payload: { openingFloat } });
const close = (member: Member, id: number, body: Record<string, unknown>) =>
  t.request(member.token, { method: 'POST', url: `/api/shifts/${id}/close`, payload: body });
const report = (member: Member, id: number) =>
  t.request(member.token, { method: 'GET', url: `/api/shifts/${id}/report` });
const movement = (member: Member, id: number, body: Record<string, unknown>, key?: string) =>
  t.request(member.token, {
    method: 'POST',
    url: `/api/shifts/${id}/movements`,
    payload: body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

async function opened(member: Member, openingFloat: string): Promise<Shift> {
  const response = await open(member, openingFloat);
  expectStatus(response, 201);
  return response.json<Shift>();
}

async function closed(member: Member, id: number, body: Record<string, unknown>): Promise<ShiftReport> {
  const response = await close(member, id, body);
  expectStatus(response, 200);
  return response.json<ShiftReport>();
}

/** A prize paid at the shop during its shift, as the payout will record it (the claims module's). */
async function payPrize(winnerId: number, shop: Member, shiftId: number): Promise<void> {
  await t.database.db.execute(
    sql`UPDATE prize_claims SET status = 'paid', paid_at = now(), paid_by = ${shop.id}, claimer_name = 'Walk-in',
      shift_id = ${shiftId} WHERE winner_id = ${winnerId}`,
  );
}

async function claimsOf(gameId: number): Promise<{ winner_id: number; amount: string }[]> {
  return queryRows(
    t.database.db,
    sql`SELECT winner_id, amount::text AS amount FROM prize_claims WHERE game_id = ${gameId} ORDER BY amount DESC`,
  );
}

describe(`shifts (${TEST_DB})`, () => {
  it('expected cash = float + bets of settled games − prizes paid; a voided game and a take-back are listed, not counted', async () => {
    // A shop that never opened a shift does not use shifts; once it has, it does, open or not.
    const never = await t.request(h.U1.token, { method: 'GET', url: '/api/shifts/current' });
    expect(never.json<CurrentShift>()).toEqual({ shift: null, report: null, usesShifts: false });
    // A game settled before the shift opens belongs to no shift.
    const before = await drawAll(t, h.U1, await openGame(t, h.U1, everyNumber));
    const shift = await opened(h.U1, '100.00');
    expect(shift).toMatchObject({ openingFloat: '100.00', expectedCash: '100.00', closedAt: null, zNumber: null });
    expect(shift).toMatchObject({ shopName: 'User One', parentName: 'Agent One', openedBy: 'User One' });

    const settled = await drawAll(t, h.U1, await openGame(t, h.U1, everyNumber)); // pool 40.00, prizes 24 + 16
    const [first, second] = await claimsOf(settled.id);
    expect([first?.amount, second?.amount]).toEqual(['2400', '1600']);
    await payPrize(first?.winner_id ?? 0, h.U1, shift.id);
    const voided = await openGame(t, h.U1, everyNumber);
    await freeze(t, h.U1.token, voided.id);
    expectStatus(await voidCall(t, h.A1.token, voided.id, 'Power cut'), 200);
    expectStatus(await money(t, h.A1.token, 'take-back', { userId: h.U1.id, amount: '5.00', reason: 'Float' }), 200);

    const current = await t.request(h.U1.token, { method: 'GET', url: '/api/shifts/current' });
    expectStatus(current, 200);
    const x = current.json<CurrentShift>().report as ShiftReport;
    expect(x.kind).toBe('X');
    expect(x.games.map((g) => [g.gameId, g.status, g.pool])).toEqual([
      [settled.id, 'settled', '40.00'],
      [voided.id, 'voided', '40.00'],
    ]);
    expect(x.games.some((g) => g.gameId === before.id)).toBe(false);
    expect(x.prizesPaid).toMatchObject([{ winnerId: first?.winner_id, amount: '24.00', claimerName: 'Walk-in' }]);
    expect(x.unpaidPrizes).toMatchObject([{ winnerId: second?.winner_id, amount: '16.00' }]);
    expect(x.takeBacks).toMatchObject([{ amount: '5.00', by: 'Agent One', reason: 'Float' }]);
    expect(x.totals).toEqual({
      games: 1,
      betsCollected: '40.00',
      prizesPaid: '24.00',
      unpaidPrizes: '16.00',
      takenBack: '5.00',
      voidedGames: 1,
      pickups: '0.00',
      drops: '0.00',
      paidIn: '0.00',
      paidOut: '0.00',
      betsRefunded: '40.00',
    });
    expect(x.refunds).toMatchObject([{ gameId: voided.id, amount: '40.00' }]);
    expect(x.takeBacks[0]?.fromDrawer).toBe(false);
    // 100 + 40 − 24
    expect(x.expectedCash).toBe('116.00');
    expect(x.shift.expectedCash).toBe('116.00');

    expect(current.json<CurrentShift>().usesShifts).toBe(true);
    const z = await closed(h.U1, shift.id, { countedCash: '116' });
    const after = await t.request(h.U1.token, { method: 'GET', url: '/api/shifts/current' });
    expect(after.json<CurrentShift>()).toEqual({ shift: null, report: null, usesShifts: true });
    expect(z).toMatchObject({ kind: 'Z', expectedCash: '116.00', countedCash: '116.00', variance: '0.00' });
    expect(z.shift).toMatchObject({ zNumber: 1, closedBy: 'User One', variance: '0.00', varianceReason: null });
    // No audit checkpoint was made yet (decision 045).
    expect(z.auditCheckpoint).toBeNull();
    // The stored Z report is answered as it was at the close, to the shop and its upline.
    const stored = await report(h.S1, shift.id);
    expectStatus(stored, 200);
    expect(stored.json<ShiftReport>()).toEqual(z);
    const audit = await queryRows<{ action: string; details: { zNumber?: number } }>(
      t.database.db,
      sql`SELECT action, details FROM audit_log WHERE target_kind = 'shift' AND target_id = ${shift.id} ORDER BY id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['shift.opened', 'shift.closed']);
    expect(audit[1]?.details.zNumber).toBe(1);
    expectStatus(await t.request(h.A1.token, { method: 'GET', url: '/api/audit?action=shift.closed' }), 200);

    // Closed is closed: the API refuses, and so does the database itself.
    const again = await close(h.U1, shift.id, { countedCash: '1', varianceReason: 'Try again' });
    expectStatus(again, 409);
    expect(again.json()).toMatchObject({ code: 'SHIFT_CLOSED', message: 'This shift is already closed' });
    await expect(
      t.database.db.execute(sql`UPDATE shifts SET counted_cash = 0, variance = -11600 WHERE id = ${shift.id}`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`DELETE FROM shifts WHERE id = ${shift.id}`)).rejects.toThrow();
    expect(await report(h.U1, shift.id).then((r) => r.json<ShiftReport>())).toEqual(z);
  });

  it('a difference needs a reason; a game in progress stops the close; a second open is refused', async () => {
    const shift = await opened(h.U1, '10.00');
    const twice = await open(h.U1, '5');
    expectStatus(twice, 409);
    expect(twice.json()).toMatchObject({ code: 'SHIFT_OPEN', message: 'A shift is already open' });

    const game = await openGame(t, h.U1, everyNumber);
    const busy = await close(h.U1, shift.id, { countedCash: '10' });
    expectStatus(busy, 409);
    expect(busy.json()).toMatchObject({
      code: 'GAME_IN_PROGRESS',
      message: 'Finish or discard the game in progress before closing the shift',
    });
    expectStatus(await voidCall(t, h.U1.token, game.id, 'Nobody came'), 200);

    const short = await close(h.U1, shift.id, { countedCash: '9.00', varianceReason: '   ' });
    expectStatus(short, 400);
    expect(short.json()).toMatchObject({ fieldErrors: { varianceReason: 'Give a reason for the difference' } });
    const still = await t.request(h.U1.token, { method: 'GET', url: '/api/shifts/current' });
    expect(still.json<CurrentShift>().shift).toMatchObject({ id: shift.id, closedAt: null });

    // The latest signed checkpoint of the audit trail is printed on the Z report (decision 045).
    const folder = mkdtempSync(join(tmpdir(), 'lot-z-checkpoint-'));
    const { checkpoint } = await takeCheckpoint(
      t.database.db,
      checkpointKey(folder),
      join(folder, 'c.json'),
      new Date(t.now()),
    );
    rmSync(folder, { recursive: true, force: true });
    const z = await closed(h.U1, shift.id, { countedCash: '9.00', varianceReason: 'Change given twice' });
    expect(z.shift).toMatchObject({ zNumber: 2, variance: '-1.00', varianceReason: 'Change given twice' });
    expect(z.auditCheckpoint).toEqual({ digest: checkpoint.digest, madeAt: checkpoint.madeAt });
    const summary = await t.request(h.A1.token, { method: 'GET', url: '/api/shifts/summary' });
    expectStatus(summary, 200);
    expect(summary.json<ShiftSummary>()).toMatchObject({
      open: 0,
      closedToday: 2,
      shortToday: 1,
      varianceToday: '-1.00',
    });
  });

  it('only the shop closes its shift (its agent 403, another agent 404); reports and lists keep to the hierarchy', async () => {
    const mine = await opened(h.U2, '0');
    const theirs = await opened(h.U5, '20.00');
    expectStatus(await close(h.A1, mine.id, { countedCash: '0' }), 403);
    expectStatus(await close(h.admin, mine.id, { countedCash: '0' }), 403);
    expectStatus(await close(h.A3, mine.id, { countedCash: '0' }), 404);
    expectStatus(await close(h.U1, mine.id, { countedCash: '0' }), 404);
    expectStatus(await report(h.A3, mine.id), 404);
    expectStatus(await report(h.U1, mine.id), 404);
    expectStatus(await report(h.A1, mine.id), 200);
    expectStatus(await open(h.A1, '1'), 403);
    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/shifts/summary' }), 403);

    // An open shift from before today's UTC midnight is over midnight (backdated: it is still open).
    await t.database.db.execute(
      sql`UPDATE shifts SET opened_at = date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '2 hours' WHERE id = ${theirs.id}`,
    );
    const list = async (member: Member, query = '') => {
      const response = await t.request(member.token, { method: 'GET', url: `/api/shifts${query}` });
      expectStatus(response, 200);
      return response.json<ShiftList>();
    };
    const agent = await list(h.A1, '?status=open');
    expect(agent.items.map((s) => s.id)).toEqual([mine.id]);
    expect((await list(h.A1)).items.every((s) => [h.U1.id, h.U2.id].includes(s.userId))).toBe(true);
    expect((await list(h.S2)).items.map((s) => [s.id, s.overMidnight])).toEqual([[theirs.id, true]]);
    expect((await list(h.U2)).items.map((s) => s.id)).toEqual([mine.id]);
    expect((await list(h.A3, `?userId=${h.U2.id}`)).total).toBe(0);
    const all = await list(h.admin, '?status=open&pageSize=1');
    expect([all.total, all.items.length, all.pageSize]).toEqual([2, 1, 1]);
    const summary = await t.request(h.S2.token, { method: 'GET', url: '/api/shifts/summary' });
    expect(summary.json<ShiftSummary>()).toMatchObject({ open: 1, openOverMidnight: 1, closedToday: 0 });

    const csv = await t.request(h.A1.token, { method: 'GET', url: '/api/shifts/export?format=csv' });
    expectStatus(csv, 200);
    const rows = csvRows(csv.body);
    expect(rows[0]?.slice(0, 3)).toEqual(['Opened', 'ID', 'Shop']);
    expect(rows.slice(1).map((r) => Number(r[1]))).toEqual((await list(h.A1)).items.map((s) => s.id));
    const xlsx = await t.request(h.S2.token, { method: 'GET', url: '/api/shifts/export?format=xlsx' });
    expectStatus(xlsx, 200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
  });

  it('Z numbers run 1, 2, 3… per shop without a gap or a repeat under concurrent closes', async () => {
    const shops = [h.U3, h.U4];
    const numbers = new Map<number, number[]>(shops.map((s) => [s.id, []]));
    for (let cycle = 0; cycle < 3; cycle++) {
      const shifts = await Promise.all(shops.map((shop) => opened(shop, '1.00')));
      // Each shop sends three closes of its shift at once, all shops together: one close wins per shift.
      const answers = await Promise.all(
        shops.flatMap((shop, i) =>
          [0, 1, 2].map(async () => ({ shop, answer: await close(shop, shifts[i]?.id ?? 0, { countedCash: '1.00' }) })),
        ),
      );
      for (const shop of shops) {
        const mine = answers.filter((a) => a.shop === shop).map((a) => a.answer);
        expect(mine.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
        const won = mine.find((a) => a.statusCode === 200)?.json<ShiftReport>();
        numbers.get(shop.id)?.push(won?.shift.zNumber ?? 0);
      }
    }
    for (const shop of shops) expect(numbers.get(shop.id)).toEqual([1, 2, 3]);
    const [counters] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM shop_counters WHERE user_id IN (${h.U3.id}, ${h.U4.id}) AND z_reports = 3`,
    );
    expect(Number(counters?.n)).toBe(2);
  });

  it('a game frozen while the shop has no open shift belongs to none', async () => {
    const game: Game = await drawAll(t, h.U5, await openGame(t, h.U5, everyNumber));
    const [row] = await queryRows<{ shift_id: number | null }>(
      t.database.db,
      sql`SELECT shift_id FROM game_rounds WHERE id = ${game.id}`,
    );
    // U5's shift (opened above) is open: the game is its.
    expect(row?.shift_id).not.toBeNull();
    const current = await t.request(h.U5.token, { method: 'GET', url: '/api/shifts/current' });
    const shift = current.json<CurrentShift>();
    expect(shift.report?.games.map((g) => g.gameId)).toEqual([game.id]);
    // 20 + 40 (no prize paid)
    expect(shift.shift?.expectedCash).toBe('60.00');
    await closed(h.U5, shift.shift?.id ?? 0, { countedCash: '60.00' });
    const after = await drawAll(t, h.U5, await openGame(t, h.U5, everyNumber));
    const [none] = await queryRows<{ shift_id: number | null }>(
      t.database.db,
      sql`SELECT shift_id FROM game_rounds WHERE id = ${after.id}`,
    );
    expect(none?.shift_id).toBeNull();
    // Every game and payout attached to a closed shift is in its stored Z report.
    const [missing] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT (SELECT count(*) FROM game_rounds r JOIN shifts s ON s.id = r.shift_id WHERE s.closed_at IS NOT NULL
          AND NOT (s.z_report->'games') @> jsonb_build_array(jsonb_build_object('gameId', r.id)))
        + (SELECT count(*) FROM prize_claims c JOIN shifts s ON s.id = c.shift_id WHERE s.closed_at IS NOT NULL
          AND NOT (s.z_report->'prizesPaid') @> jsonb_build_array(jsonb_build_object('winnerId', c.winner_id))) AS n`,
    );
    expect(Number(missing?.n)).toBe(0);
  });

  it("an open shift's X report is as of the request's clock: one request a day on sees it over midnight, the next is back to today", async () => {
    const shift = await opened(h.U5, '30.00');
    const asReport = async (response: Awaited<ReturnType<typeof report>>) => {
      expectStatus(response, 200);
      return response.json<ShiftReport>();
    };
    const today = await asReport(await report(h.U5, shift.id));
    const DAY = 86_400_000;
    const dayOn = await asReport(await t.withClockSkew(DAY, () => report(h.U5, shift.id)));
    const after = await asReport(await report(h.U5, shift.id));
    expect([today.shift.overMidnight, dayOn.shift.overMidnight, after.shift.overMidnight]).toEqual([
      false,
      true,
      false,
    ]);
    const generated = (r: ShiftReport) => Date.parse(r.generatedAt);
    expect(generated(dayOn) - generated(today)).toBeGreaterThanOrEqual(DAY);
    expect(generated(dayOn) - generated(after)).toBeGreaterThan(DAY - 60_000);
    expect(generated(after) - generated(today)).toBeLessThan(60_000);
    await closed(h.U5, shift.id, { countedCash: '30.00' });
  });

  it('cash movements change the expected cash, are listed and audited; the shift closes with expected = counted', async () => {
    const shift = await opened(h.U3, '200.00');
    const moves = [
      { kind: 'pickup', amount: '50.00', reason: 'Agent collection', takenBy: 'Agent One' },
      { kind: 'drop', amount: '100', reason: 'Evening drop', takenBy: 'Night manager' },
      { kind: 'paid_in', amount: 20.5, reason: 'Change from the bank' },
      { kind: 'paid_out', amount: '12.25', reason: 'Cleaning supplies' },
    ];
    const recorded: ShiftMovement[] = [];
    for (const body of moves) {
      const response = await movement(h.U3, shift.id, body);
      expectStatus(response, 201);
      recorded.push(response.json<ShiftMovement>());
    }
    expect(recorded.map((m) => [m.kind, m.amount, m.takenBy, m.recordedBy])).toEqual([
      ['pickup', '50.00', 'Agent One', 'User Three'],
      ['drop', '100.00', 'Night manager', 'User Three'],
      ['paid_in', '20.50', null, 'User Three'],
      ['paid_out', '12.25', null, 'User Three'],
    ]);

    // A replay with the same key records once and answers the first movement.
    const keyed = { kind: 'paid_out', amount: '3.00', reason: 'Stamps' };
    const first = await movement(h.U3, shift.id, keyed, 'stamps-1');
    const replay = await movement(h.U3, shift.id, keyed, 'stamps-1');
    expectStatus(replay, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json<ShiftMovement>().id).toBe(first.json<ShiftMovement>().id);

    // Bad input and the wrong caller change nothing.
    const refusals: [Member, Record<string, unknown>, number, Record<string, unknown>][] = [
      [h.U3, { kind: 'pickup', amount: '5', reason: 'No name' }, 400, { takenBy: 'Say who took the cash' }],
      [h.U3, { kind: 'paid_in', amount: '5', reason: 'x', takenBy: 'Bob' }, 400, { takenBy: expect.any(String) }],
      [h.U3, { kind: 'paid_out', amount: '0', reason: 'Zero' }, 400, { amount: expect.any(String) }],
      [h.U3, { kind: 'paid_out', amount: '1.005', reason: 'Cents' }, 400, { amount: expect.any(String) }],
      [h.U3, { kind: 'paid_out', amount: '5', reason: '  ' }, 400, { reason: 'Give a reason' }],
      [h.U3, { kind: 'refund', amount: '5', reason: 'Kind' }, 400, { kind: expect.any(String) }],
      [h.A2, { kind: 'paid_out', amount: '5', reason: 'Agent' }, 403, {}],
      [h.A1, { kind: 'paid_out', amount: '5', reason: 'Not its agent' }, 404, {}],
      [h.admin, { kind: 'paid_out', amount: '5', reason: 'Admin' }, 403, {}],
      [h.A3, { kind: 'paid_out', amount: '5', reason: 'Other agent' }, 404, {}],
      [h.U1, { kind: 'paid_out', amount: '5', reason: 'Other shop' }, 404, {}],
    ];
    for (const [member, body, status, fieldErrors] of refusals) {
      const response = await movement(member, shift.id, body);
      expectStatus(response, status);
      expect(response.json()).toMatchObject(status === 400 ? { fieldErrors } : {});
    }

    const x = await report(h.U3, shift.id).then((r) => r.json<ShiftReport>());
    expect(x.movements?.map((m) => m.reason)).toEqual([...moves.map((m) => m.reason), 'Stamps']);
    expect(x.totals).toMatchObject({ pickups: '50.00', drops: '100.00', paidIn: '20.50', paidOut: '15.25' });
    // 200 − 50 − 100 + 20.50 − 12.25 − 3
    expect(x.expectedCash).toBe('55.25');
    const listed = await t.request(h.U3.token, { method: 'GET', url: '/api/shifts?status=open' });
    expect(listed.json<ShiftList>().items[0]?.expectedCash).toBe('55.25');

    const audit = await queryRows<{ details: { kind: string; amount: string; takenBy: string | null } }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'shift.cash_movement' AND target_id = ${shift.id} ORDER BY id`,
    );
    expect(audit.map((a) => [a.details.kind, a.details.amount, a.details.takenBy])).toEqual([
      ['pickup', '50.00', 'Agent One'],
      ['drop', '100.00', 'Night manager'],
      ['paid_in', '20.50', null],
      ['paid_out', '12.25', null],
      ['paid_out', '3.00', null],
    ]);

    const z = await closed(h.U3, shift.id, { countedCash: '55.25' });
    expect(z).toMatchObject({ expectedCash: '55.25', countedCash: '55.25', variance: '0.00' });
    expect(z.movements).toHaveLength(5);
    // Closed: no movement is added, by the API or by the database itself; none is changed or deleted.
    const late = await movement(h.U3, shift.id, { kind: 'paid_in', amount: '1', reason: 'Late' });
    expectStatus(late, 409);
    expect(late.json()).toMatchObject({ code: 'SHIFT_CLOSED' });
    await expect(
      t.database.db.execute(
        sql`INSERT INTO shift_cash_movements (shift_id, kind, amount, reason, recorded_by)
          VALUES (${shift.id}, 'paid_in', 100, 'Late', ${h.U3.id})`,
      ),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`UPDATE shift_cash_movements SET amount = 1 WHERE shift_id = ${shift.id}`),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`DELETE FROM shift_cash_movements WHERE shift_id = ${shift.id}`),
    ).rejects.toThrow();
    expect(await report(h.U3, shift.id).then((r) => r.json<ShiftReport>())).toEqual(z);
  });
  it('a take-back from the drawer records its pickup in the same statement: with a pickup and a paid-out the shift closes with expected = counted', async () => {
    const fromDrawer = { userId: h.U3.id, amount: '25.00', reason: 'Agent collects cash', fromDrawer: true };
    // No open shift: refused, and nothing moved.
    const balance = await balanceOf(t, h.U3.id);
    const none = await money(t, h.A2.token, 'take-back', fromDrawer);
    expectStatus(none, 409);
    expect(none.json()).toMatchObject({
      code: 'NO_OPEN_SHIFT',
      message: 'This shop has no open shift: its drawer cannot be taken from',
    });
    expect(await balanceOf(t, h.U3.id)).toBe(balance);

    const shift = await opened(h.U3, '100.00');
    expectStatus(
      await movement(h.U3, shift.id, { kind: 'pickup', amount: '30', reason: 'Midday pickup', takenBy: 'Agent Two' }),
      201,
    );
    expectStatus(await movement(h.U3, shift.id, { kind: 'paid_out', amount: '7.50', reason: 'Light bulbs' }), 201);
    const taken = await money(t, h.A2.token, 'take-back', fromDrawer, 'drawer-1');
    expectStatus(taken, 200);
    // A replay of the same keyed take-back moves the money and the drawer once.
    expectStatus(await money(t, h.A2.token, 'take-back', fromDrawer, 'drawer-1'), 200);
    // An ordinary take-back is still listed, not counted.
    expectStatus(await money(t, h.A2.token, 'take-back', { userId: h.U3.id, amount: '5.00', reason: 'Fees' }), 200);
    // A balance too small for it: refused, and no pickup is recorded either.
    const tooMuch = await money(t, h.A2.token, 'take-back', { ...fromDrawer, amount: '1000000' });
    expectStatus(tooMuch, 422);
    // The shop's upline outside the reach cannot reach the shop at all.
    expectStatus(await money(t, h.A3.token, 'take-back', fromDrawer), 404);

    const x = await report(h.U3, shift.id).then((r) => r.json<ShiftReport>());
    const takeBackId = taken.json<{ transaction: { id: number } }>().transaction.id;
    expect(x.movements?.map((m) => [m.kind, m.amount, m.takenBy, m.recordedBy, m.takeBackId])).toEqual([
      ['pickup', '30.00', 'Agent Two', 'User Three', null],
      ['paid_out', '7.50', null, 'User Three', null],
      ['pickup', '25.00', 'Agent Two', 'Agent Two', takeBackId],
    ]);
    expect(x.takeBacks.map((tb) => [tb.amount, tb.fromDrawer])).toEqual([
      ['25.00', true],
      ['5.00', false],
    ]);
    expect(x.totals).toMatchObject({ pickups: '55.00', paidOut: '7.50', takenBack: '30.00' });
    // 100 − 30 − 7.50 − 25
    expect(x.expectedCash).toBe('37.50');
    const [audit] = await queryRows<{ details: { fromDrawerOfShift?: number } }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'money.takeback' AND target_id = ${takeBackId}`,
    );
    expect(audit?.details.fromDrawerOfShift).toBe(shift.id);

    const z = await closed(h.U3, shift.id, { countedCash: '37.50' });
    expect(z).toMatchObject({ expectedCash: '37.50', countedCash: '37.50', variance: '0.00' });
    expect(z.shift.varianceReason).toBeNull();
    // Once closed, a take-back from its drawer finds no open shift.
    expectStatus(await money(t, h.A2.token, 'take-back', fromDrawer), 409);
  });
});
