import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMITS } from '../../lib/export.ts';
import { csvRows } from '../../test/csv.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * Users exports (docs/product/reports.md#exports): the users screens' list, all of it, with its
 * search and status, in the caller's scope only; plain users export nobody.
 */

EXPORT_LIMITS.pageSize = 2;

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await fund(t, h.U1.id, '12.34');
});
afterAll(() => t?.close());

describe(`users exports (${TEST_DB})`, () => {
  it.each([
    ['admin', 'user', ''],
    ['admin', 'agent', ''],
    ['admin', 'user', 'search=two'],
    ['admin', 'user', 'status=inactive'],
    ['S1', 'user', ''],
    ['S1', 'agent', ''],
    ['A1', 'user', ''],
  ] as const)('%s, %s %s: the list, every row, same order', async (who, role, filter) => {
    const member = h[who];
    const listed = await t.request(member.token, {
      method: 'GET',
      url: `/api/users/role/${role}?limit=1000&${filter}`,
    });
    expectStatus(listed, 200);
    const ids = listed.json<{ id: number }[]>().map((user) => user.id);
    const file = await t.request(member.token, {
      method: 'GET',
      url: `/api/users/role/${role}/export?format=csv&${filter}`,
    });
    expectStatus(file, 200);
    expect(file.headers['content-disposition']).toMatch(new RegExp(`filename="users-${role}-until-[\\d-]+\\.csv"`));
    const [header, ...rows] = csvRows(file.body);
    expect(header).toEqual(['ID', 'Username', 'Full name', 'Role', 'Status', 'Shop', 'Parent', 'Balance', 'Created']);
    expect(rows.map((row) => Number(row[0]))).toEqual(ids);
    expect(Number(listed.headers['x-total-count'])).toBe(rows.length);
  });

  it('writes balances as money and opens in Excel', async () => {
    const file = await t.request(h.A1.token, { method: 'GET', url: '/api/users/role/user/export?format=xlsx' });
    expectStatus(file, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const balances = new Map<string, unknown>();
    sheet?.eachRow((row, index) => {
      if (index > 1) balances.set(String(row.getCell(2).value), row.getCell(8).value);
    });
    expect(balances.get('user_one')).toBe(12.34);
  });

  it('refuses a plain user and bad filters', async () => {
    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/users/role/user/export?format=csv' }), 403);
    expectStatus(await t.request(h.A1.token, { method: 'GET', url: '/api/users/role/user/export?format=txt' }), 400);
    expectStatus(await t.request(h.A1.token, { method: 'GET', url: '/api/users/role/boss/export?format=csv' }), 400);
  });
});
