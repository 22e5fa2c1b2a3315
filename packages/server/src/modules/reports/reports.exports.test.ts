import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Downline, Statement } from '@lot/domain/schemas/reports';
import { statementKindLabel } from '@lot/domain/statement-kinds';
import { EXPORT_LIMITS } from '../../lib/export.ts';
import { csvRows } from '../../test/csv.ts';
import { configureWinners, playGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { cents, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The downline report and statements as files (docs/product/reports.md#exports): the same
 * figures as the screens' calls, opening + movements = closing in the file too, and the same scope.
 */

EXPORT_LIMITS.pageSize = 2;

let t: TestApp;
let h: Hierarchy;
const today = new Date().toISOString().slice(0, 10);
const period = `from=${today.slice(0, 8)}01&to=${today}`;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  await fund(t, h.A1.id, '300.00');
  await fund(t, h.U1.id, '100.00');
  expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U1.id, amount: '12.34' }), 200);
  await playGame(t, h.U1, { numbers: [1, 2, 3], bet: '2.50' });
  await fund(t, h.U4.id, '40.00');
  await playGame(t, h.U4, { numbers: [6, 7, 8, 9], bet: '3.00' });
});
afterAll(() => t?.close());

const get = (member: Member, url: string) => t.request(member.token, { method: 'GET', url });

describe(`report exports (${TEST_DB})`, () => {
  it("a statement's file: opening, every movement with its running balance, closing", async () => {
    const shown = (await get(h.U1, `/api/statements/${h.U1.id}?${period}&limit=1000`)).json<Statement>();
    const file = await get(h.U1, `/api/statements/${h.U1.id}/export?${period}&format=csv`);
    expectStatus(file, 200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="statement-user_one-${today.slice(0, 8)}01-to-${today}.csv"`,
    );
    const [header, ...rows] = csvRows(file.body);
    expect(header).toEqual(['Date', 'Kind', 'Description', 'Counterparty', 'Game', 'Amount', 'Balance']);
    expect(rows).toHaveLength(shown.total + 2);
    expect(rows[0]?.[1]).toBe('Opening balance');
    expect(rows.at(-1)?.[1]).toBe('Closing balance');
    const moved = rows.slice(1, -1).reduce((sum, row) => sum + cents(row[5] ?? ''), 0);
    expect(cents(rows[0]?.[6] ?? '') + moved).toBe(cents(rows.at(-1)?.[6] ?? ''));
    expect(rows.at(-1)?.[6]).toBe(shown.closingBalance);
    expect(rows.slice(1, -1).map((row) => row[6])).toEqual(shown.movements.map((m) => m.balance));
    // The Kind and Counterparty cells say what the screen says: words, and the counterpart's full name.
    const kinds = shown.movements.map((m) => statementKindLabel(m.kind));
    expect(kinds).toEqual(expect.arrayContaining(['Transfer received', 'Game pool held']));
    expect(rows.slice(1, -1).map((row) => row[1])).toEqual(kinds);
    const parties = shown.movements.map((m) => m.counterparty?.fullName ?? '');
    expect(parties).toContain(h.A1.fullName);
    expect(rows.slice(1, -1).map((row) => row[3])).toEqual(parties);

    const excel = await get(h.U1, `/api/statements/${h.U1.id}/export?${period}&format=xlsx`);
    expectStatus(excel, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const column = (n: number) => shown.movements.map((_, i) => sheet?.getRow(i + 3).getCell(n).value ?? '');
    expect(column(2)).toEqual(kinds);
    expect(column(4)).toEqual(parties);
  });

  it("the downline report's file: its rows and its totals, in CSV and Excel", async () => {
    const shown = (await get(h.S1, `/api/reports/downline?${period}`)).json<Downline>();
    const file = await get(h.S1, `/api/reports/downline/export?${period}&format=csv`);
    expectStatus(file, 200);
    const [, ...rows] = csvRows(file.body);
    expect(rows).toHaveLength(shown.rows.length + 1);
    expect(rows.at(-1)?.[0]).toBe('Totals');
    expect(rows.at(-1)?.[7]).toBe(shown.totals.commission);
    const sum = rows.slice(0, -1).reduce((total, row) => total + cents(row[7] ?? ''), 0);
    expect(sum).toBe(cents(shown.totals.commission));

    const excel = await get(h.S1, `/api/reports/downline/export?${period}&format=xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.rowCount).toBe(shown.rows.length + 2);
  });

  it('refuses what the screens refuse', async () => {
    expectStatus(await get(h.A1, `/api/statements/${h.U5.id}/export?${period}&format=csv`), 404);
    expectStatus(await get(h.A1, `/api/reports/downline/export?${period}&parentId=${h.S2.id}&format=csv`), 404);
    expectStatus(await get(h.U1, `/api/reports/downline/export?${period}&format=csv`), 403);
    expectStatus(await get(h.U1, `/api/statements/${h.U1.id}/export?from=${today}&to=2020-01-01&format=csv`), 400);
    expectStatus(await get(h.U1, `/api/statements/${h.U1.id}/export?${period}&format=doc`), 400);
  });
});
