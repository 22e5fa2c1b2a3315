import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { queryRows } from '../../db/client.ts';
import { backdate, configureWinners, listGames, playGame, sortedIds } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * List mechanics (spec section 5 date filters, DESIGN.md section 6): inclusive day boundaries,
 * newest first, and X-Total-Count / X-Total-Commission over the whole filtered set, not the page.
 */

let t: TestApp;
let h: Hierarchy;
const PERCENTS = ['50', '30'];

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: PERCENTS[0]!, position: 1 },
    { percent: PERCENTS[1]!, position: 2 },
  ]);
  await fund(t, h.U1.id, '1000.00');
  await fund(t, h.U3.id, '1000.00');
});
afterAll(() => t.close());

const cents = (amount: string) => Math.round(Number(amount) * 100);

describe('date boundaries: from 00:00:00.000 through 23:59:59.999 inclusive', () => {
  const AT = {
    dayStart: '2026-03-01T00:00:00.000Z',
    dayEnd: '2026-03-01T23:59:59.999Z',
    nextDay: '2026-03-02T00:00:00.000Z',
    dayBefore: '2026-02-28T23:59:59.999Z',
  } as const;
  const game: Partial<Record<keyof typeof AT, SaleDetail>> = {};
  const DAY = `from=${AT.dayStart}&to=${AT.dayEnd}`;

  beforeAll(async () => {
    for (const [index, key] of (Object.keys(AT) as (keyof typeof AT)[]).entries()) {
      const sale = await playGame(t, h.U3, { numbers: [1, 2, 3 + index] });
      await backdate(t, sale.id, AT[key]);
      game[key] = sale;
    }
  });

  const idsAt = (...keys: (keyof typeof AT)[]) => sortedIds(keys.map((key) => game[key]!.id));

  /** The same question asked through every list that reaches U3. */
  const views = (): [Member, string][] => [
    [h.U3, `/api/sales-history/user/${h.U3.id}`],
    [h.A2, `/api/sales-history/agent/${h.A2.id}`],
    [h.S1, `/api/sales-history/superagent/${h.S1.id}?userId=${h.U3.id}`],
    [h.admin, `/api/sales-history/filter?userId=${h.U3.id}`],
  ];

  it('the day 2026-03-01 holds exactly its first and last millisecond', async () => {
    for (const [member, url] of views()) {
      const list = await listGames(t, member.token, `${url}${url.includes('?') ? '&' : '?'}${DAY}`);
      expect(list.ids, `${member.username} ${url}`).toEqual([game.dayEnd!.id, game.dayStart!.id]);
      expect(list.total).toBe(2);
      expect(list.totalCommission).toBe(formatCents(cents(game.dayEnd!.commission) + cents(game.dayStart!.commission)));
      expect(list.items.map((item) => item.createdAt)).toEqual([AT.dayEnd, AT.dayStart]);
    }
  });

  it('from alone, to alone, the next day and an offset-written instant', async () => {
    const url = `/api/sales-history/user/${h.U3.id}`;
    const ids = async (query: string) => sortedIds((await listGames(t, h.U3.token, `${url}?${query}`)).ids);
    expect(await ids(`from=${AT.dayStart}`)).toEqual(idsAt('dayStart', 'dayEnd', 'nextDay'));
    expect(await ids(`to=${AT.dayBefore}`)).toEqual(idsAt('dayBefore'));
    expect(await ids(`to=${AT.dayEnd}`)).toEqual(idsAt('dayBefore', 'dayStart', 'dayEnd'));
    expect(await ids(`from=${AT.nextDay}&to=2026-03-02T23:59:59.999Z`)).toEqual(idsAt('nextDay'));
    expect(await ids(`from=2026-02-28T00:00:00.000Z&to=${AT.dayBefore}`)).toEqual(idsAt('dayBefore'));
    // 01:00 at +01:00 is midnight UTC; "+" must be escaped in a query string.
    expect(await ids(`from=${encodeURIComponent('2026-03-01T01:00:00.000+01:00')}&to=${AT.dayEnd}`)).toEqual(
      idsAt('dayStart', 'dayEnd'),
    );
    expect(await ids(`from=${AT.nextDay}&to=${AT.dayStart}`)).toEqual([]);
  });

  it('a game in the last millisecond but after .999000 still belongs to its day, and to no other', async () => {
    const late = await playGame(t, h.U3, { numbers: [1, 2] });
    await t.database.db.execute(
      sql`UPDATE games SET created_at = '2026-03-01T23:59:59.999500Z'::timestamptz WHERE id = ${late.id}`,
    );
    const url = `/api/sales-history/user/${h.U3.id}`;
    const day = await listGames(t, h.U3.token, `${url}?${DAY}`);
    expect(sortedIds(day.ids)).toEqual(sortedIds([...idsAt('dayStart', 'dayEnd'), late.id]));
    const next = await listGames(t, h.U3.token, `${url}?from=${AT.nextDay}&to=2026-03-02T23:59:59.999Z`);
    expect(next.ids).toEqual([game.nextDay!.id]);
  });

  it('dates that are not ISO date-times are 400', async () => {
    for (const query of ['from=2026-03-01', 'to=yesterday', 'from=2026-03-01T00:00:00', 'to=1709251200000']) {
      const response = await t.request(h.U3.token, {
        method: 'GET',
        url: `/api/sales-history/user/${h.U3.id}?${query}`,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('paging: totals are over the whole set, pages are disjoint, newest first', () => {
  const sales: SaleDetail[] = [];
  /** Three games share one instant: the id breaks the tie, so pages stay disjoint. */
  const TIED = [10, 11, 12];
  const instant = (index: number) =>
    new Date(Date.UTC(2026, 0, 1) + (TIED.includes(index) ? TIED[0]! : index) * 3_600_000).toISOString();

  beforeAll(async () => {
    for (let i = 0; i < 25; i++) {
      const count = 2 + (i % 4);
      const sale = await playGame(t, h.U1, {
        numbers: Array.from({ length: count }, (_, n) => n + 1),
        bet: `${1 + (i % 5)}.${String(i % 100).padStart(2, '0')}`,
      });
      sales.push(sale);
    }
    // Played in one order, dated in another: the list must follow the dates.
    for (const [index, sale] of [...sales].reverse().entries()) await backdate(t, sale.id, instant(index));
  });

  /** Newest first by date, then by id. */
  const expectedOrder = () => {
    const dated = [...sales].reverse().map((sale, index) => ({ id: sale.id, at: instant(index) }));
    return dated.sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id).map((d) => d.id);
  };
  const allCommission = () => formatCents(sales.reduce((sum, sale) => sum + cents(sale.commission), 0));

  it('the games differ in commission, so the totals say something', () => {
    expect(new Set(sales.map((sale) => sale.commission)).size).toBeGreaterThan(5);
  });

  it.each<[string, () => [Member, string]]>([
    ['the user’s own list', () => [h.U1, `/api/sales-history/user/${h.U1.id}`]],
    ['the agent’s list', () => [h.A1, `/api/sales-history/agent/${h.A1.id}`]],
    [
      'the superagent’s list filtered to the user',
      () => [h.S1, `/api/sales-history/superagent/${h.S1.id}?userId=${h.U1.id}`],
    ],
    ['the admin filter', () => [h.admin, `/api/sales-history/filter?role=user&userId=${h.U1.id}`]],
  ])('%s: three pages of 10 add up to the headers', async (_label, view) => {
    const [member, url] = view();
    const join = url.includes('?') ? '&' : '?';
    const pages = [];
    for (const offset of [0, 10, 20])
      pages.push(await listGames(t, member.token, `${url}${join}limit=10&offset=${offset}`));
    expect(pages.map((page) => page.ids.length)).toEqual([10, 10, 5]);
    for (const page of pages) {
      expect(page.total).toBe(25);
      expect(page.totalCommission).toBe(allCommission());
    }
    const seen = pages.flatMap((page) => page.ids);
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual(expectedOrder());
    const summed = pages.flatMap((page) => page.items).reduce((sum, item) => sum + cents(item.commission), 0);
    expect(formatCents(summed)).toBe(pages[0]!.totalCommission);
    const times = pages.flatMap((page) => page.items.map((item) => item.createdAt));
    expect([...times].sort().reverse()).toEqual(times);

    const beyond = await listGames(t, member.token, `${url}${join}limit=10&offset=30`);
    expect(beyond.ids).toEqual([]);
    expect(beyond.total).toBe(25);
    expect(beyond.totalCommission).toBe(allCommission());
  });

  it('the totals agree with the database', async () => {
    const rows = await queryRows<{ count: string; commission: string }>(
      t.database.db,
      sql`SELECT count(*)::text AS count, sum(commission)::text AS commission FROM games WHERE user_id = ${h.U1.id}`,
    );
    const list = await listGames(t, h.U1.token, `/api/sales-history/user/${h.U1.id}?limit=1`);
    expect(list.total).toBe(Number(rows[0]!.count));
    expect(list.totalCommission).toBe(formatCents(BigInt(rows[0]!.commission)));
  });

  it('a date window narrows the totals too', async () => {
    // Instants 0..9 hours after 2026-01-01T00:00Z hold the ten oldest games.
    const url = `/api/sales-history/user/${h.U1.id}?from=2026-01-01T00:00:00.000Z&to=2026-01-01T09:00:00.000Z&limit=3`;
    const list = await listGames(t, h.U1.token, url);
    const oldest = expectedOrder().slice(-10);
    expect(list.total).toBe(10);
    expect(list.ids).toEqual(oldest.slice(0, 3));
    const byId = new Map(sales.map((sale) => [sale.id, sale]));
    expect(list.totalCommission).toBe(
      formatCents(oldest.reduce((sum, id) => sum + cents(byId.get(id)!.commission), 0)),
    );
  });

  it('limit and offset are checked', async () => {
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'limit=2.5', 'limit=x']) {
      const response = await t.request(h.U1.token, {
        method: 'GET',
        url: `/api/sales-history/user/${h.U1.id}?${query}`,
      });
      expectStatus(response, 400);
    }
  });
});
