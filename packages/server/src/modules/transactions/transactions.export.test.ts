import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMITS } from '../../lib/export.ts';
import { csvRows } from '../../test/csv.ts';
import { configureWinners, playGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { cents, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * Transactions exports (docs/product/reports.md#exports): the rows of the caller's list with the
 * same filters, all of them, whose amounts add up to the list's X-Total-Amount; nobody's export
 * holds a row their list would not show.
 */

// Pages of 3 rows, so every export crosses page boundaries.
EXPORT_LIMITS.pageSize = 3;

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  await fund(t, h.A1.id, '500.00');
  await fund(t, h.U1.id, '200.00');
  await fund(t, h.U5.id, '80.00');
  for (const amount of ['10.00', '2.50', '7.25', '1.00']) {
    expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U1.id, amount }), 200);
  }
  expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '3.33' }), 200);
  await playGame(t, h.U1, { numbers: [1, 2, 3], bet: '2.00' });
  await playGame(t, h.U5, { numbers: [4, 5], bet: '1.50' });
});
afterAll(() => t?.close());

const get = (member: Member, url: string) => t.request(member.token, { method: 'GET', url });

describe(`transactions exports (${TEST_DB})`, () => {
  it.each([
    ['admin', ''],
    ['admin', 'type=transfer'],
    ['A1', ''],
    ['U1', ''],
    ['U1', 'direction=sent'],
    ['U1', 'search=agent_one'],
    ['U5', ''],
  ] as const)('%s %s: every row of the list, amounts to the cent', async (who, filter) => {
    const member = h[who];
    const listed = await get(member, `/api/transactions?limit=1&${filter}`);
    expectStatus(listed, 200);
    const total = Number(listed.headers['x-total-count']);
    expect(total).toBeGreaterThan(0);

    const exported = await get(member, `/api/transactions/export?format=csv&${filter}`);
    expectStatus(exported, 200);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="transactions-until-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = csvRows(exported.body);
    expect(header).toEqual(['Date', 'ID', 'Type', 'Description', 'From', 'To', 'Amount', 'Status', 'Game']);
    expect(rows).toHaveLength(total);
    expect(rows.reduce((sum, row) => sum + cents(row[6] ?? ''), 0)).toBe(
      cents(String(listed.headers['x-total-amount'])),
    );

    // The list's rows, page by page, are the export's rows in the same order.
    const all = await get(member, `/api/transactions?limit=1000&${filter}`);
    expect(rows.map((row) => Number(row[1]))).toEqual(all.json<{ id: number }[]>().map((row) => row.id));

    const excel = await get(member, `/api/transactions/export?format=xlsx&${filter}`);
    expectStatus(excel, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.rowCount).toBe(total + 1);
  });

  it('shows nobody a row outside their list', async () => {
    const exported = csvRows((await get(h.U5, '/api/transactions/export?format=csv')).body).slice(1);
    for (const row of exported) expect([row[4], row[5]]).toContain('user_five');
  });

  it('refuses bad filters as the list does', async () => {
    const bad = await get(h.U1, '/api/transactions/export?format=csv&type=gift');
    expectStatus(bad, 400);
    expectStatus(await get(h.U1, '/api/transactions/export'), 400);
    expectStatus(await t.request(null, { method: 'GET', url: '/api/transactions/export?format=csv' }), 401);
  });
});
