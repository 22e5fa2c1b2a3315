import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game, GameSummary } from '@lot/domain/schemas/games';
import type { Sale, SaleDetail } from '@lot/domain/schemas/sales-history';
import type { SearchResult } from '@lot/domain/schemas/search';
import { queryRows } from '../../db/client.ts';
import { csvRows } from '../../test/csv.ts';
import { configureWinners, drawAll, openGame, openGameCall, proofOf, voidCall } from '../../test/game-fixtures.ts';
import { createMember, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The shop's game number (decision 037): 1, 2, 3… per shop without a gap, whatever fails or runs
 * at once, and the one number every answer that names the game gives.
 */

let t: TestApp;
let shops: [Member, Member];

beforeAll(async () => {
  t = await createMoneyTestApp();
  const tag = Date.now().toString(36);
  shops = [
    await createMember(t, { username: `numbers_a_${tag}`, fullName: 'Numbers Shop A', role: 'user' }),
    await createMember(t, { username: `numbers_b_${tag}`, fullName: 'Numbers Shop B', role: 'user' }),
  ];
  await configureWinners(t, null, [{ percent: '50.00', position: 1 }]);
  await fund(t, shops[0].id, '100.00');
});
afterAll(() => t?.close());

const OPEN = { startRange: 1, endRange: 20, betAmount: '10.00' };
const get = (member: Member | null, url: string) => t.request(member?.token ?? t.adminToken, { method: 'GET', url });

describe(`game numbers (${TEST_DB})`, () => {
  it('run 1, 2, 3 per shop without a gap: a refused open gives its number back, two shops open at once', async () => {
    const numbers = await Promise.all(
      shops.map(async (shop) => {
        const given: number[] = [];
        for (let round = 0; round < 3; round++) {
          // Two opens at once: one opens, the other is refused (a game is in progress) and its
          // number, taken in its transaction, goes back with it.
          const answers = await Promise.all([openGameCall(t, shop.token, OPEN), openGameCall(t, shop.token, OPEN)]);
          expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
          const game = answers.find((answer) => answer.statusCode === 201)!.json<Game>();
          given.push(game.number);
          // One more refused open while it is in progress, then it is discarded.
          expectStatus(await openGameCall(t, shop.token, OPEN), 409);
          expectStatus(await voidCall(t, shop.token, game.id, 'Next one'), 200);
        }
        return given;
      }),
    );
    expect(numbers).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    const counters = await queryRows<{ user_id: number; games: number }>(
      t.database.db,
      sql`SELECT user_id, games FROM shop_counters WHERE user_id IN (${shops[0].id}, ${shops[1].id}) ORDER BY user_id`,
    );
    expect(counters.map((row) => row.games)).toEqual([3, 3]);
  });

  it('is the same number in the game, its proof, its sale and winners, the lists, search and the export', async () => {
    const [shop, other] = shops;
    const settled = await drawAll(t, shop, await openGame(t, shop, { numbers: [1, 2, 3], end: 3 }));
    expect(settled.status).toBe('settled');
    const number = settled.number;
    expect(number).toBe(4);

    expect((await get(shop, `/api/games/${settled.id}`)).json<Game>().number).toBe(number);
    expect((await proofOf(t, settled.code)).number).toBe(number);
    const sale = (await get(shop, `/api/sales-history/${settled.saleId}`)).json<SaleDetail>();
    expect(sale).toMatchObject({ id: settled.saleId, number });
    expect(sale.winners.length).toBeGreaterThan(0);
    const listed = (await get(shop, `/api/sales-history/user/${shop.id}`)).json<Sale[]>();
    expect(listed.find((row) => row.id === settled.saleId)?.number).toBe(number);
    const summaries = (await get(shop, '/api/games?status=settled')).json<GameSummary[]>();
    expect(summaries.map((game) => [game.id, game.number])).toEqual([[settled.id, number]]);

    // Search finds a game by its number (with or without #), each shop's game of that number.
    const found = (await get(null, `/api/search?q=%23${number}`)).json<SearchResult>().games;
    expect(found.map((game) => [game.id, game.number, game.player.id])).toEqual([[settled.id, number, shop.id]]);
    const ones = (await get(null, '/api/search?q=1')).json<SearchResult>().games;
    expect(ones.map((game) => [game.number, game.player.id]).sort()).toEqual(
      [
        [1, shop.id],
        [1, other.id],
      ].sort(),
    );
    expect((await get(shop, '/api/search?q=1')).json<SearchResult>().games.map((g) => g.player.id)).toEqual([shop.id]);

    // The export names it by the same number, beside its shop.
    const csv = await get(shop, `/api/sales-history/user/${shop.id}/export?format=csv`);
    expectStatus(csv, 200);
    const [header, ...rows] = csvRows(csv.body);
    expect(header?.slice(0, 3)).toEqual(['Date', 'Game #', 'Username']);
    expect(rows.map((row) => [row[1], row[2]])).toEqual([[String(number), shop.username]]);
  });
});
