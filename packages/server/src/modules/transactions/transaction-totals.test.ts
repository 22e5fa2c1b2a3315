import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents, formatCents } from '@lot/domain/money';
import type { Transaction } from '@lot/domain/schemas/balance';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import { queryRows } from '../../db/client.ts';
import { configureWinners, drawAll, drawPosition, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { balanceOf, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * GET /api/transactions' totals of the whole filtered set (docs/product/screens.md#transactions):
 * X-Total-In, X-Total-Out and X-Total-Net, computed by the database, equal the rows of every page
 * signed as the screen signs them, for each filter (the game and take-back types too) and each caller's scope;
 * unfiltered, a caller's net is their balance and the admin's the sum of all balances.
 */

let t: TestApp;
let h: Hierarchy;
const games: Record<'settled' | 'drawing' | 'voided' | 'otherShop', Game> = {} as never;

async function draw(member: Member, game: Game, position: number): Promise<Game> {
  const response = await drawPosition(t, member.token, game.id, position);
  expectStatus(response, 200);
  return response.json<DrawResult>().game;
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '25', position: 2 },
  ]);
  await fund(t, h.U1.id, '200.00');
  await fund(t, h.U2.id, '50.00');
  await fund(t, h.A1.id, '100.00');
  const moves: [Member, 'transfer' | 'decrease' | 'take-back', Record<string, unknown>][] = [
    [h.A1, 'transfer', { receiverId: h.U1.id, amount: '30.00' }],
    [h.U1, 'transfer', { receiverId: h.U2.id, amount: '12.34' }],
    [h.U2, 'transfer', { receiverId: h.U1.id, amount: '3.00' }],
    [h.admin, 'decrease', { userId: h.U1.id, amount: '1.50', description: 'Till count' }],
    [h.A1, 'transfer', { receiverId: h.U2.id, amount: '7.77' }],
    // The agent takes money back from its shop: out for the shop, in for the agent.
    [h.A1, 'take-back', { userId: h.U1.id, amount: '2.25', reason: 'Till short' }],
  ];
  for (const [member, call, body] of moves) expectStatus(await money(t, member.token, call, body), 200);
  // Enough rows for several pages.
  for (let i = 1; i <= 9; i++) await fund(t, h.U1.id, `0.${String(i).padStart(2, '0')}`);

  const numbers = [1, 2, 3, 4];
  games.settled = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers, bet: '2.50' }));
  const toVoid = await draw(h.U1, await openGame(t, h.U1, { numbers, bet: '4.00' }), 1);
  // The draw has started: the shop's agent voids it.
  const voided = await voidCall(t, h.A1.token, toVoid.id, 'Customer left');
  expectStatus(voided, 200);
  games.voided = voided.json<Game>();
  // Drawn once and left so (a shop has one game in progress at a time): its pool is held (pending).
  games.drawing = await draw(h.U1, await openGame(t, h.U1, { numbers, bet: '1.25' }), 1);
  games.otherShop = await drawAll(t, h.U2, await openGame(t, h.U2, { numbers: [5, 6], bet: '3.00' }));
  expect([games.settled.status, games.drawing.status, games.voided.status]).toEqual(['settled', 'drawing', 'voided']);
}, 120_000);
afterAll(() => t?.close());

/** A row as the transactions screen signs it for the viewer (transaction-view.ts): +1 in, -1 out, 0 neither. */
function signFor(row: Transaction, viewerId: number): number {
  if (row.type === 'topup') return 1;
  if (row.type === 'transfer' || row.type === 'takeback') {
    return row.receiverId === viewerId ? 1 : row.userId === viewerId ? -1 : 0;
  }
  if (row.type === 'game') return row.status === 'voided' ? 0 : -1;
  return -1; // a correction
}

type Totals = { count: string; amount: string; in: string; out: string; net: string };

/** Every page of a filtered list (`size` to a page); each page's totals must be the same. */
async function allPages(member: Member, filter: string, size: number) {
  const rows: Transaction[] = [];
  let totals: Totals | undefined;
  for (let offset = 0; ; offset += size) {
    const response = await t.request(member.token, {
      method: 'GET',
      url: `/api/transactions?limit=${size}&offset=${offset}${filter}`,
    });
    expectStatus(response, 200);
    const header = (name: string) => String(response.headers[name]);
    const pageTotals = {
      count: header('x-total-count'),
      amount: header('x-total-amount'),
      in: header('x-total-in'),
      out: header('x-total-out'),
      net: header('x-total-net'),
    };
    if (totals) expect(pageTotals).toEqual(totals);
    totals = pageTotals;
    const page = response.json<Transaction[]>();
    rows.push(...page);
    if (page.length < size) break;
  }
  if (!totals) throw new Error('no page');
  return { rows, totals };
}

const FILTERS = [
  '',
  '&type=topup',
  '&type=transfer',
  '&type=decrease',
  '&type=game',
  '&type=takeback',
  '&search=user_two',
];

describe('GET /api/transactions: totals of the whole filtered set', () => {
  it.each(['U1', 'U2', 'A1', 'admin'] as const)(
    '%s: for every filter, the totals are the sum of the rows of every page, signed as the screen signs them',
    async (key) => {
      const member = h[key];
      for (const filter of FILTERS) {
        const { rows, totals } = await allPages(member, filter, 4);
        const sum = (sign: number) =>
          rows
            .filter((row) => signFor(row, member.id) === sign)
            .reduce((cents, row) => cents + decimalToCents(row.amount), 0);
        expect(totals, `${key} ${filter}`).toEqual({
          count: String(rows.length),
          amount: formatCents(sum(1) + sum(-1) + sum(0)),
          in: formatCents(sum(1)),
          out: formatCents(sum(-1)),
          net: formatCents(sum(1) - sum(-1)),
        });
        const whole = await t.request(member.token, { method: 'GET', url: `/api/transactions?limit=1000${filter}` });
        expect(rows.map((row) => row.id)).toEqual(whole.json<Transaction[]>().map((row) => row.id));
      }
    },
  );

  it("unfiltered, each caller's net is their balance, and the admin's the sum of every balance", async () => {
    for (const member of [h.U1, h.U2, h.A1]) {
      const { totals } = await allPages(member, '', 1000);
      expect(totals.net, member.username).toBe(formatCents(await balanceOf(t, member.id)));
    }
    const [all] = await queryRows<{ sum: string }>(t.database.db, sql`SELECT sum(amount)::text AS sum FROM balances`);
    expect((await allPages(h.admin, '', 1000)).totals.net).toBe(formatCents(Number(all?.sum)));
  });

  it("the game type: the shop's own game rows, a voided game's pool neither in nor out; others' games out of scope", async () => {
    const { rows, totals } = await allPages(h.U1, '&type=game', 2);
    expect(rows.every((row) => row.type === 'game' && row.userId === h.U1.id)).toBe(true);
    expect(rows.map((row) => row.status).sort()).toEqual(['completed', 'pending', 'voided']);
    const pool = (game: Game) => decimalToCents(game.pool);
    expect(totals).toMatchObject({
      count: '3',
      in: '0.00',
      out: formatCents(pool(games.settled) + pool(games.drawing)),
      net: formatCents(-(pool(games.settled) + pool(games.drawing))),
    });
    // The upline is neither sender nor receiver of a shop's game; the admin sees every game.
    expect((await allPages(h.A1, '&type=game', 10)).totals.count).toBe('0');
    const admin = await allPages(h.admin, '&type=game', 10);
    expect(admin.totals.count).toBe('4');
    expect(admin.totals.out).toBe(formatCents(pool(games.settled) + pool(games.drawing) + pool(games.otherShop)));
  });

  it('the takeback type: out of the shop it was taken from, into the agent who took it; the admin sees it move nothing', async () => {
    const taken = { count: '1', amount: '2.25' };
    expect((await allPages(h.U1, '&type=takeback', 10)).totals).toEqual({
      ...taken,
      in: '0.00',
      out: '2.25',
      net: '-2.25',
    });
    expect((await allPages(h.A1, '&type=takeback', 10)).totals).toEqual({
      ...taken,
      in: '2.25',
      out: '0.00',
      net: '2.25',
    });
    expect((await allPages(h.admin, '&type=takeback', 10)).totals).toEqual({
      ...taken,
      in: '0.00',
      out: '0.00',
      net: '0.00',
    });
    expect((await allPages(h.U2, '&type=takeback', 10)).totals.count).toBe('0');
  });

  it('an unknown type is refused', async () => {
    const response = await t.request(h.U1.token, { method: 'GET', url: '/api/transactions?type=games' });
    expectStatus(response, 400);
  });
});
