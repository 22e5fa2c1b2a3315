import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { DayClose } from '@lot/domain/schemas/reports';
import { checkLedger } from '../balance/ledger.ts';
import { configureWinners, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { balanceOf, cents, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { drawTo, lastTransactionAt, seededRandom } from '../../test/story.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * The day close (docs/product/money.md#day-close, decision 014): random days of activity of one
 * shop — top-ups, transfers in and out, corrections, take-backs, games settled the same day, held one day and
 * settled or voided the next — each moved to a chosen instant. Every day's figures equal a model
 * of those instants, opening + movements = closing to the cent, one day's closing is the next
 * day's opening, and today's closing is the current balance; in UTC and in a zone with a DST change.
 */

type Kind =
  'topupsIn' | 'transfersIn' | 'transfersOut' | 'corrections' | 'takenBack' | 'gamePoolsHeld' | 'gamePoolsReturned';
type Move = { at: number; kind: Kind; cents: number };
type Settled = { at: number; numbers: number; pool: number; prizes: number };
type Voided = { at: number };

let t: TestApp;
let h: Hierarchy;
const moves: Move[] = [];
const settledGames: Settled[] = [];
const voidedGames: Voided[] = [];

/** A small seeded generator, so a failure can be replayed (the seed is printed). */
const SEED = Number(process.env.DAY_CLOSE_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);

const BASE = Date.parse('2026-03-06T00:30:00Z');
let clock = BASE;
/** The next instant of the story: 1 to 11 hours after the last one. */
const next = () => (clock += random(60, 660) * 60_000);
const iso = (ms: number) => new Date(ms).toISOString();

async function playGame(kind: 'same-day' | 'next-day' | 'voided') {
  const numbers = Array.from({ length: random(2, 5) }, (_, i) => i + 1 + random(0, 3) * 5);
  const game = await openGame(t, h.U1, { numbers: [...new Set(numbers)], bet: formatCents(random(100, 900)) });
  const held = await drawTo(t, h.U1.token, game, 1);
  const heldAt = next();
  await t.database.db.execute(
    sql`UPDATE transactions SET created_at = ${iso(heldAt)}::timestamptz WHERE id = ${held.transactionId}`,
  );
  const pool = cents(held.pool);
  moves.push({ at: heldAt, kind: 'gamePoolsHeld', cents: pool });
  if (kind !== 'same-day') clock += 24 * 3_600_000; // the next day
  const endedAt = next();
  if (kind === 'voided') {
    // The draw has started: the shop's agent voids it, and the pool goes back to the shop.
    const voided = await voidCall(t, h.A1.token, game.id, 'customer left');
    expectStatus(voided, 200);
    moves.push({ at: endedAt, kind: 'gamePoolsReturned', cents: pool });
    voidedGames.push({ at: endedAt });
  } else {
    const settled = await drawTo(t, h.U1.token, held, held.prizes.length);
    expect(settled.status).toBe('settled');
    await t.database.db.execute(
      sql`UPDATE games SET created_at = ${iso(endedAt)}::timestamptz WHERE id = ${settled.saleId}`,
    );
    settledGames.push({
      at: endedAt,
      numbers: settled.entries.length,
      pool,
      prizes: cents(settled.totalPrize ?? '0'),
    });
  }
  await t.database.db.execute(
    sql`UPDATE game_rounds SET created_at = ${iso(heldAt)}::timestamptz, ended_at = ${iso(endedAt)}::timestamptz WHERE id = ${game.id}`,
  );
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '30', position: 2 },
  ]);
  // The agent's money arrives before the story starts; it is not the shop's.
  await fund(t, h.A1.id, '100000.00');
  await lastTransactionAt(t, BASE - 86_400_000 * 30);
  await fund(t, h.U1.id, '500.00');
  moves.push({ at: next(), kind: 'topupsIn', cents: 50_000 });
  await lastTransactionAt(t, clock);
  // Every run has a take-back (the audit's case: the sheet's lines must still sum to its net).
  expectStatus(await money(t, h.A1.token, 'take-back', { userId: h.U1.id, amount: '25.00', reason: 'till' }), 200);
  moves.push({ at: next(), kind: 'takenBack', cents: 2_500 });
  await lastTransactionAt(t, clock);
  const steps = 16;
  for (let step = 0; step < steps; step++) {
    const choice = random(0, 7);
    const amount = random(1, 4_000);
    if (choice === 0) {
      await fund(t, h.U1.id, formatCents(amount));
      moves.push({ at: next(), kind: 'topupsIn', cents: amount });
    } else if (choice === 1) {
      expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U1.id, amount: formatCents(amount) }), 200);
      moves.push({ at: next(), kind: 'transfersIn', cents: amount });
    } else if (choice === 2) {
      expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: formatCents(amount) }), 200);
      moves.push({ at: next(), kind: 'transfersOut', cents: amount });
    } else if (choice === 3) {
      const body = { userId: h.U1.id, amount: formatCents(amount), description: 'till count' };
      expectStatus(await money(t, t.adminToken, 'decrease', body), 200);
      moves.push({ at: next(), kind: 'corrections', cents: amount });
    } else if (choice === 7) {
      const body = { userId: h.U1.id, amount: formatCents(amount), reason: 'till' };
      expectStatus(await money(t, h.A1.token, 'take-back', body), 200);
      moves.push({ at: next(), kind: 'takenBack', cents: amount });
    } else {
      await playGame(choice === 4 ? 'same-day' : choice === 5 ? 'next-day' : 'voided');
      continue;
    }
    await lastTransactionAt(t, clock);
  }
  // Both cases every run: a game held one day and settled the next, one held and voided the next.
  await playGame('next-day');
  await playGame('voided');
}, 240_000);

afterAll(async () => {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  await t.close();
});

async function dayClose(token: string, query: string) {
  const response = await t.request(token, { method: 'GET', url: `/api/reports/day-close?${query}` });
  expectStatus(response, 200);
  return response.json<DayClose>();
}

const SIGN: Record<Kind, number> = {
  topupsIn: 1,
  transfersIn: 1,
  transfersOut: -1,
  corrections: -1,
  takenBack: -1,
  gamePoolsHeld: -1,
  gamePoolsReturned: 1,
};

/** The model's figures for [from, to). */
function expected(from: number, to: number) {
  const inDay = (at: number) => at >= from && at < to;
  const sum = (kind: Kind) => moves.filter((m) => m.kind === kind && inDay(m.at)).reduce((s, m) => s + m.cents, 0);
  const signed = (filter: (m: Move) => boolean) => moves.filter(filter).reduce((s, m) => s + SIGN[m.kind] * m.cents, 0);
  const settled = settledGames.filter((g) => inDay(g.at));
  const opening = signed((m) => m.at < from);
  const net = signed((m) => inDay(m.at));
  return {
    games: {
      settled: settled.length,
      voided: voidedGames.filter((g) => inDay(g.at)).length,
      numbersSold: settled.reduce((s, g) => s + g.numbers, 0),
      pool: formatCents(settled.reduce((s, g) => s + g.pool, 0)),
      prizes: formatCents(settled.reduce((s, g) => s + g.prizes, 0)),
      commission: formatCents(settled.reduce((s, g) => s + g.pool - g.prizes, 0)),
    },
    movements: {
      topupsIn: formatCents(sum('topupsIn')),
      transfersIn: formatCents(sum('transfersIn')),
      transfersOut: formatCents(sum('transfersOut')),
      corrections: formatCents(sum('corrections')),
      takenBack: formatCents(sum('takenBack')),
      gamePoolsHeld: formatCents(sum('gamePoolsHeld')),
      gamePoolsReturned: formatCents(sum('gamePoolsReturned')),
      net: formatCents(net),
    },
    openingBalance: formatCents(opening),
    closingBalance: formatCents(opening + net),
  };
}

function days(): string[] {
  const list: string[] = [];
  for (let day = BASE - 86_400_000; day <= clock + 86_400_000; day += 86_400_000) {
    list.push(iso(day).slice(0, 10));
  }
  return list;
}

describe(`day close (seed ${SEED})`, () => {
  for (const tz of [undefined, 'America/New_York']) {
    it(`every day matches the model and chains, opening + movements = closing (${tz ?? 'UTC by default'})`, async () => {
      let previous: DayClose | undefined;
      for (const date of days()) {
        const report = await dayClose(h.U1.token, `date=${date}${tz ? `&tz=${tz}` : ''}`);
        expect(report.timeZone).toBe(tz ?? 'UTC');
        expect(report).toMatchObject(expected(Date.parse(report.from), Date.parse(report.to)));
        const { movements: m } = report;
        expect(
          cents(report.openingBalance) +
            cents(m.topupsIn) +
            cents(m.transfersIn) -
            cents(m.transfersOut) -
            cents(m.corrections) -
            cents(m.takenBack) -
            cents(m.gamePoolsHeld) +
            cents(m.gamePoolsReturned),
        ).toBe(cents(report.closingBalance));
        expect(cents(report.openingBalance) + cents(m.net)).toBe(cents(report.closingBalance));
        if (previous) {
          expect(report.openingBalance).toBe(previous.closingBalance);
          expect(report.from).toBe(previous.to);
        }
        previous = report;
      }
    });
  }

  it('the local day of a zone, across its DST change', async () => {
    const spring = await dayClose(h.U1.token, 'date=2026-03-08&tz=America/New_York');
    expect([spring.from, spring.to]).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    const utc = await dayClose(h.U1.token, 'date=2026-03-08');
    expect([utc.from, utc.to]).toEqual(['2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z']);
  });

  it("today's closing is the current balance", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = await dayClose(h.U1.token, `date=${today}`);
    expect(report.closingBalance).toBe(formatCents(await balanceOf(t, h.U1.id)));
    const all = expected(-Infinity, Infinity);
    expect(report.closingBalance).toBe(all.closingBalance);
  });

  it('scope: the user their own, the upline and the admin a user in scope; others 404, a wrong role 403', async () => {
    const date = 'date=2026-03-08';
    for (const member of [h.U1, h.A1, h.S1, h.admin]) {
      const report = await dayClose(member.token, `${date}&userId=${h.U1.id}`);
      expect(report.userId).toBe(h.U1.id);
    }
    expect((await dayClose(h.U1.token, date)).userId).toBe(h.U1.id);
    const status = async (token: string, query: string) =>
      (await t.request(token, { method: 'GET', url: `/api/reports/day-close?${query}` })).statusCode;
    for (const member of [h.A2, h.S2, h.A3]) expect(await status(member.token, `${date}&userId=${h.U1.id}`)).toBe(404);
    expect(await status(h.A1.token, `${date}&userId=${h.U5.id}`)).toBe(404);
    expect(await status(h.U2.token, `${date}&userId=${h.U1.id}`)).toBe(403);
    expect(await status(h.S1.token, `${date}&userId=${h.A1.id}`)).toBe(403);
    expect(await status(h.A1.token, `${date}&userId=${h.A1.id}`)).toBe(403);
    expect(await status(h.A1.token, date)).toBe(400);
    expect(await status(h.U1.token, 'date=2026-02-30')).toBe(400);
    expect(await status(h.U1.token, 'date=08/03/2026')).toBe(400);
    expect(await status(h.U1.token, `${date}&tz=Mars/Olympus`)).toBe(400);
    expect(await status(h.U1.token, `${date}&tz=${encodeURIComponent("UTC'; --")}`)).toBe(400);
    expect(await status('', date)).toBe(401);
  });

  it('a day still to come or not a day is refused with a clear message, whoever asks', async () => {
    const refusal = async (token: string, query: string) => {
      const response = await t.request(token, { method: 'GET', url: `/api/reports/day-close?${query}` });
      expectStatus(response, 400);
      return response.json<{ message: string; fieldErrors?: Record<string, string> }>();
    };
    // Tomorrow in UTC; in a zone 14 hours ahead, its today is accepted and its tomorrow refused.
    const utcToday = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ahead = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const afterAhead = new Date(Date.parse(`${ahead}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const message = `date cannot be after today (${utcToday} in UTC)`;
    expect(await refusal(h.U1.token, `date=${tomorrow}`)).toMatchObject({ message, fieldErrors: { date: message } });
    expect((await refusal(h.A1.token, `date=9999-12-31&userId=${h.U1.id}`)).message).toBe(message);
    expect((await refusal(h.U1.token, `date=${afterAhead}&tz=Pacific/Kiritimati`)).message).toBe(
      `date cannot be after today (${ahead} in Pacific/Kiritimati)`,
    );
    expect((await dayClose(h.U1.token, `date=${ahead}&tz=Pacific/Kiritimati`)).date).toBe(ahead);
    for (const garbage of ['garbage', '2026-13-01', '', '2026-1-5']) {
      expect((await refusal(h.U1.token, `date=${garbage}`)).message, garbage).toBe('date must be a day as YYYY-MM-DD');
    }
  });
});
