import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { Statement, StatementMovement } from '@lot/domain/schemas/reports';
import { queryRows } from '../../db/client.ts';
import { checkLedger } from '../balance/ledger.ts';
import { configureWinners, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { balanceOf, cents, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { drawTo, lastTransactionAt, seededRandom } from '../../test/story.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * Statements (docs/product/money.md#statements): random weeks of activity around a shop (U1) and
 * its agent (A1) — top-ups, transfers both ways, corrections, take-backs, games settled and voided,
 * each moved to a chosen instant. For every period asked, the movements are exactly those of a
 * model of those instants, in order, each with its running balance; opening + movements = closing;
 * periods chain; pages put together are the whole period; and a period that ends today closes at
 * the current balance.
 */

type Kind = StatementMovement['kind'];
type Move = { at: number; kind: Kind; cents: number };

let t: TestApp;
let h: Hierarchy;
/** What happened to each account, by its key. */
const moves: Record<'U1' | 'A1', Move[]> = { U1: [], A1: [] };

const SEED = Number(process.env.STATEMENT_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);

const BASE = Date.parse('2026-04-01T03:00:00Z');
let clock = BASE;
/** The next instant of the story: 2 to 20 hours after the last one. */
const next = () => (clock += random(120, 1_200) * 60_000);
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

async function playGame(voided: boolean) {
  const numbers = [...new Set(Array.from({ length: random(2, 5) }, () => random(1, 20)))];
  const game = await openGame(t, h.U1, { numbers, bet: formatCents(random(100, 900)) });
  const held = await drawTo(t, h.U1.token, game, 1);
  const heldAt = next();
  await t.database.db.execute(
    sql`UPDATE transactions SET created_at = ${iso(heldAt)}::timestamptz WHERE id = ${held.transactionId}`,
  );
  const pool = cents(held.pool);
  moves.U1.push({ at: heldAt, kind: 'gamePoolHeld', cents: -pool });
  const endedAt = next();
  if (voided) {
    // The draw has started: the shop's agent voids it, and the pool goes back to the shop.
    expectStatus(await voidCall(t, h.A1.token, game.id, 'customer left'), 200);
    moves.U1.push({ at: endedAt, kind: 'gamePoolReturned', cents: pool });
  } else {
    const settled = await drawTo(t, h.U1.token, held, held.prizes.length);
    expect(settled.status).toBe('settled');
    await t.database.db.execute(
      sql`UPDATE games SET created_at = ${iso(endedAt)}::timestamptz WHERE id = ${settled.saleId}`,
    );
    moves.U1.push({ at: endedAt, kind: 'gameSettled', cents: 0 });
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
  await fund(t, h.A1.id, '100000.00');
  moves.A1.push({ at: BASE - 86_400_000 * 10, kind: 'topup', cents: 10_000_000 });
  await lastTransactionAt(t, BASE - 86_400_000 * 10);
  // Another shop's round first (opened, then discarded: no money moves), so no game's id is its number.
  const other = await openGame(t, h.U2, { numbers: [1] });
  expectStatus(await voidCall(t, h.U2.token, other.id, 'Not played'), 200);
  await fund(t, h.U1.id, '500.00');
  moves.U1.push({ at: next(), kind: 'topup', cents: 50_000 });
  await lastTransactionAt(t, clock);
  for (let step = 0; step < 24; step++) {
    const choice = random(0, 7);
    const amount = random(1, 3_000);
    const balance = await balanceOf(t, h.U1.id);
    if (choice === 0) {
      await fund(t, h.U1.id, formatCents(amount));
      moves.U1.push({ at: next(), kind: 'topup', cents: amount });
    } else if (choice === 1) {
      expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U1.id, amount: formatCents(amount) }), 200);
      moves.U1.push({ at: next(), kind: 'transferIn', cents: amount });
      moves.A1.push({ at: clock, kind: 'transferOut', cents: -amount });
    } else if (choice === 2 && balance >= amount) {
      expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: formatCents(amount) }), 200);
      moves.U1.push({ at: next(), kind: 'transferOut', cents: -amount });
    } else if (choice === 3 && balance >= amount) {
      const body = { userId: h.U1.id, amount: formatCents(amount), description: 'till count' };
      expectStatus(await money(t, t.adminToken, 'decrease', body), 200);
      moves.U1.push({ at: next(), kind: 'correction', cents: -amount });
    } else if (choice === 4 && balance >= amount) {
      const body = { userId: h.U1.id, amount: formatCents(amount), reason: 'weekly recall' };
      expectStatus(await money(t, h.A1.token, 'take-back', body), 200);
      moves.U1.push({ at: next(), kind: 'takeBackOut', cents: -amount });
      moves.A1.push({ at: clock, kind: 'takeBackIn', cents: amount });
    } else if (choice >= 5) {
      await playGame(choice === 7);
      continue;
    } else continue;
    await lastTransactionAt(t, clock);
  }
  // Every run has each kind of game.
  await playGame(false);
  await playGame(true);
}, 240_000);

afterAll(async () => {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  await t.close();
});

async function read(by: Member, of: Member, query: string): Promise<Statement> {
  const response = await t.request(by.token, { method: 'GET', url: `/api/statements/${of.id}?${query}` });
  expectStatus(response, 200);
  const body = response.json<Statement>();
  expect(response.headers['x-total-count']).toBe(String(body.total));
  return body;
}

function days(): string[] {
  const list: string[] = [];
  for (let at = BASE - 2 * 86_400_000; at <= clock + 86_400_000; at += 86_400_000) list.push(day(at));
  return list;
}

/** The statement's whole story must be the model's for that period, with the balances it implies. */
function expectModel(statement: Statement, account: 'U1' | 'A1') {
  const from = Date.parse(statement.from);
  const to = Date.parse(statement.to);
  const all = moves[account];
  const opening = all.filter((m) => m.at < from).reduce((s, m) => s + m.cents, 0);
  const inPeriod = all.filter((m) => m.at >= from && m.at < to).sort((a, b) => a.at - b.at);
  expect(statement.openingBalance).toBe(formatCents(opening));
  let running = opening;
  const expected = inPeriod.map((m) => {
    running += m.cents;
    return { at: iso(m.at), kind: m.kind, amount: formatCents(m.cents), balance: formatCents(running) };
  });
  expect(
    statement.movements.map(({ at, kind, amount, balance }) => ({ at, kind, amount, balance })),
    `seed ${SEED}`,
  ).toEqual(expected);
  expect(statement.closingBalance).toBe(formatCents(running));
  const sum = statement.movements.reduce((s, m) => s + cents(m.amount), 0);
  expect(cents(statement.openingBalance) + sum).toBe(cents(statement.closingBalance));
  expect(cents(statement.totalIn) - cents(statement.totalOut)).toBe(sum);
}

describe(`statements (${TEST_DB}, seed ${SEED})`, () => {
  it('every period of one to five days matches the model, adds up and chains to the next', async () => {
    const list = days();
    for (const account of ['U1', 'A1'] as const) {
      let start = 0;
      let previous: Statement | undefined;
      while (start < list.length) {
        const end = Math.min(list.length - 1, start + random(0, 4));
        const statement = await read(h[account], h[account], `from=${list[start]}&to=${list[end]}&limit=1000`);
        expectModel(statement, account);
        if (previous) {
          expect(statement.openingBalance).toBe(previous.closingBalance);
          expect(statement.from).toBe(previous.to);
        }
        previous = statement;
        start = end + 1;
      }
    }
  });

  it('names the other party, the reason and the game', async () => {
    const statement = await read(h.A1, h.U1, `from=${days()[0]}&to=${days().at(-1)}&limit=1000`);
    const of = (kind: Kind) => statement.movements.filter((m) => m.kind === kind);
    for (const row of of('transferIn')) expect(row.counterparty?.id).toBe(h.A1.id);
    for (const row of of('transferOut')) expect(row.counterparty?.id).toBe(h.U2.id);
    for (const row of of('topup')) expect(row.counterparty?.id).toBe(h.admin.id);
    for (const row of of('correction'))
      expect(row).toMatchObject({ counterparty: { id: h.admin.id }, description: 'till count' });
    for (const row of of('takeBackOut'))
      expect(row).toMatchObject({ counterparty: { id: h.A1.id, fullName: 'Agent One' }, description: 'weekly recall' });
    // The shop's own number of each game (decision 037), as the game carries it.
    const rounds = await queryRows<{ code: string; number: number }>(
      t.database.db,
      sql`SELECT code, number FROM game_rounds WHERE user_id = ${h.U1.id}`,
    );
    const numberOf = new Map(rounds.map((round) => [round.code, Number(round.number)]));
    for (const kind of ['gamePoolHeld', 'gameSettled', 'gamePoolReturned'] as const) {
      expect(of(kind).length).toBeGreaterThan(0);
      for (const row of of(kind)) {
        expect(row.gameCode).toMatch(/^[\w-]{10,}$/);
        expect(row.gameNumber).toBeGreaterThan(0);
        expect(row.gameNumber).toBe(numberOf.get(row.gameCode ?? ''));
      }
    }
    for (const row of of('gamePoolReturned')) expect(row.description).toBe('customer left');
    for (const row of of('gameSettled')) expect(row.amount).toBe('0.00');
  });

  it('pages put together are the whole period, each page opening where the last one closed', async () => {
    const query = `from=${days()[0]}&to=${days().at(-1)}`;
    const whole = await read(h.U1, h.U1, `${query}&limit=1000`);
    expect(whole.total).toBe(whole.movements.length);
    expect(whole.total).toBeGreaterThan(10);
    const pages: StatementMovement[] = [];
    let balance = whole.openingBalance;
    for (let offset = 0; offset < whole.total; offset += 7) {
      const page = await read(h.U1, h.U1, `${query}&limit=7&offset=${offset}`);
      expect(page).toMatchObject({ total: whole.total, limit: 7, offset, openingBalance: whole.openingBalance });
      expect(page.pageOpeningBalance).toBe(balance);
      pages.push(...page.movements);
      balance = page.movements.at(-1)?.balance ?? balance;
    }
    expect(pages).toEqual(whole.movements);
    const past = await read(h.U1, h.U1, `${query}&limit=7&offset=${whole.total + 5}`);
    expect(past.movements).toEqual([]);
    expect(past.pageOpeningBalance).toBe(whole.closingBalance);
  });

  it('a period that ends today closes at the current balance, in any zone', async () => {
    const today = day(Date.now());
    for (const account of [h.U1, h.A1, h.S1, h.admin]) {
      for (const tz of ['', '&tz=Pacific/Kiritimati', '&tz=America/New_York']) {
        const statement = await read(h.admin, account, `from=2026-01-01&to=${today}${tz}`);
        expect(statement.closingBalance).toBe(formatCents(await balanceOf(t, account.id)));
      }
    }
  });

  it('scope: the owner, its upline and the admin; anyone else is answered 404', async () => {
    const query = 'from=2026-04-01&to=2026-04-02';
    for (const reader of [h.U1, h.A1, h.S1, h.admin]) expect((await read(reader, h.U1, query)).userId).toBe(h.U1.id);
    expect((await read(h.S1, h.A1, query)).userId).toBe(h.A1.id);
    const status = async (by: Member, of: Member, q = query) =>
      (await t.request(by.token, { method: 'GET', url: `/api/statements/${of.id}?${q}` })).statusCode;
    for (const [by, of] of [
      [h.U2, h.U1],
      [h.A2, h.U1],
      [h.S2, h.U1],
      [h.A3, h.U1],
      [h.U1, h.A1],
      [h.A1, h.S1],
      [h.S1, h.admin],
      [h.A1, h.U3],
    ] as const) {
      expect(await status(by, of), `${by.username} reads ${of.username}`).toBe(404);
    }
    for (const bad of [
      'from=2026-04-02&to=2026-04-01',
      'from=2026-04-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-04-01&to=2026-04-02&tz=Mars/Olympus',
      'from=2026-04-01&to=2026-04-02&limit=0',
      'from=2026-04-01&to=2026-04-02&limit=1001',
      'from=2026-04-01&to=2026-04-02&offset=-1',
      'from=2026-04-01&to=2026-04-02&other=1',
    ]) {
      expect(await status(h.admin, h.U1, bad), bad).toBe(400);
    }
    const reversed = await t.request(h.admin.token, {
      method: 'GET',
      url: `/api/statements/${h.U1.id}?from=2026-04-02&to=2026-04-01`,
    });
    expect(reversed.json()).toMatchObject({ fieldErrors: { to: 'to must be on or after from' } });
    expect((await t.request('', { method: 'GET', url: `/api/statements/${h.U1.id}?${query}` })).statusCode).toBe(401);
  });
});
