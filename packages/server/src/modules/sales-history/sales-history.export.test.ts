import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMITS } from '../../lib/export.ts';
import { backdate, configureWinners, playGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { cents, createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { csvRows } from '../../test/csv.ts';
import { seededRandom } from '../../test/story.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * Sales-history exports (docs/product/reports.md#exports): every row of the list's filtered set,
 * whatever the page size, in CSV and Excel; the same scope as the list; times in the asked zone;
 * a name a spreadsheet would run as a formula stays text.
 */

// Pages of 4 rows: every export crosses many page boundaries, some between games of one instant.
EXPORT_LIMITS.pageSize = 4;

let t: TestApp;
let h: Hierarchy;
const SEED = Number(process.env.EXPORT_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);
const DAY = 86_400_000;
const BASE = Date.parse('2026-06-01T00:00:00Z');

let played = 0;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '20', position: 2 },
  ]);
  // A player whose name a spreadsheet would take for a formula.
  const renamed = await t.request(t.adminToken, {
    method: 'PUT',
    url: `/api/users/${h.U3.id}`,
    payload: { fullName: '=HYPERLINK("http://evil","x")' },
  });
  expectStatus(renamed, 200);
  for (const player of [h.U1, h.U3, h.U4, h.U5]) {
    await fund(t, player.id, '2000.00');
    for (let i = 0; i < random(3, 7); i++) {
      const numbers = [...new Set(Array.from({ length: random(2, 6) }, () => random(1, 20)))];
      const game = await playGame(t, player, { numbers, bet: `${random(1, 9)}.${random(10, 99)}` });
      // Each player's first game on the first day (every date filter below has games); then every
      // third game at one shared instant: the keyset must not skip or repeat games that tie.
      const at = i === 0 ? BASE + DAY / 2 : played++ % 3 === 0 ? BASE + 5 * DAY : BASE + random(0, 9 * DAY);
      await backdate(t, game.id, new Date(at).toISOString());
    }
  }
});
afterAll(() => t?.close());

const get = (member: Member, url: string) => t.request(member.token, { method: 'GET', url });

type Case = { who: keyof Hierarchy; list: string; exportPath: string };
const CASES = (): Case[] => [
  { who: 'admin', list: '/api/sales-history/filter', exportPath: '/api/sales-history/filter/export' },
  {
    who: 'admin',
    list: `/api/sales-history/filter?role=superagent&userId=${h.S1.id}&from=2026-06-03T00:00:00.000Z`,
    exportPath: `/api/sales-history/filter/export?role=superagent&userId=${h.S1.id}&from=2026-06-03T00:00:00.000Z`,
  },
  {
    who: 'S1',
    list: `/api/sales-history/superagent/${h.S1.id}`,
    exportPath: `/api/sales-history/superagent/${h.S1.id}/export`,
  },
  {
    who: 'S1',
    list: `/api/sales-history/superagent/${h.S1.id}?agentId=${h.A1.id}`,
    exportPath: `/api/sales-history/superagent/${h.S1.id}/export?agentId=${h.A1.id}`,
  },
  { who: 'A2', list: `/api/sales-history/agent/${h.A2.id}`, exportPath: `/api/sales-history/agent/${h.A2.id}/export` },
  {
    who: 'U1',
    list: `/api/sales-history/user/${h.U1.id}?to=2026-06-05T23:59:59.999Z`,
    exportPath: `/api/sales-history/user/${h.U1.id}/export?to=2026-06-05T23:59:59.999Z`,
  },
];

const withFormat = (path: string, format: string, extra = '') =>
  `${path}${path.includes('?') ? '&' : '?'}format=${format}${extra}`;

async function csvOf(member: Member, path: string): Promise<{ response: LightMyRequestResponse; rows: string[][] }> {
  const response = await get(member, withFormat(path, 'csv'));
  expectStatus(response, 200);
  return { response, rows: csvRows(response.body) };
}

describe(`sales-history exports (${TEST_DB}, seed ${SEED})`, () => {
  it('hold every row of the list, with its commission to the cent, in CSV and in Excel', async () => {
    for (const { who, list, exportPath } of CASES()) {
      const member = h[who];
      const listed = await get(member, `${list}${list.includes('?') ? '&' : '?'}limit=1`);
      expectStatus(listed, 200);
      const total = Number(listed.headers['x-total-count']);
      const commission = cents(String(listed.headers['x-total-commission']));
      expect(total, `${who} ${list} lists games`).toBeGreaterThan(0);

      const { response, rows } = await csvOf(member, exportPath);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="sales-history-[\w-]+\.csv"$/);
      const [header = [], ...body] = rows;
      expect(header).toEqual([
        'Date',
        'Game #',
        'Username',
        'Full name',
        'Agent',
        'Range',
        'Bet',
        'Numbers sold',
        'Pool',
        'Prizes',
        'Winners',
        'Commission',
      ]);
      expect(body).toHaveLength(total);
      expect(body.reduce((sum, row) => sum + cents(row[11] ?? ''), 0)).toBe(commission);
      // A game is its shop's number at its shop (decision 037): no pair twice.
      expect(new Set(body.map((row) => `${row[2]} #${row[1]}`)).size).toBe(total);

      const excel = await get(member, withFormat(exportPath, 'xlsx'));
      expectStatus(excel, 200);
      expect(excel.headers['content-disposition']).toMatch(/\.xlsx"$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect(sheet?.rowCount).toBe(total + 1);
      let excelCommission = 0;
      sheet?.eachRow((row, index) => {
        if (index === 1) return;
        const value = row.getCell(12).value;
        expect(typeof value).toBe('number');
        excelCommission += Math.round(Number(value) * 100);
        // The same game on the same line as the CSV.
        expect(String(row.getCell(2).value)).toBe(body[index - 2]?.[1]);
      });
      expect(excelCommission).toBe(commission);
      expect(sheet?.getColumn(12).numFmt).toBe('0.00');
    }
  });

  it('writes times in the asked zone, newest first', async () => {
    const path = withFormat(`/api/sales-history/user/${h.U1.id}/export`, 'csv');
    const utc = csvRows((await get(h.U1, path)).body).slice(1);
    const tokyo = csvRows((await get(h.U1, `${path}&tz=Asia/Tokyo`)).body).slice(1);
    const at = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
    for (const [index, row] of utc.entries()) {
      expect(at(tokyo[index]?.[0] ?? '') - at(row[0] ?? '')).toBe(9 * 3_600_000);
      if (index > 0) expect(at(row[0] ?? '')).toBeLessThanOrEqual(at(utc[index - 1]?.[0] ?? ''));
    }
  });

  it('keeps a name that looks like a formula as text', async () => {
    const { rows } = await csvOf(h.A2, `/api/sales-history/agent/${h.A2.id}/export`);
    const names = rows.slice(1).map((row) => row[3]);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toBe(`'=HYPERLINK("http://evil","x")`);
  });

  it('refuses what the list refuses: another branch, another role, bad filters', async () => {
    expectStatus(await get(h.A1, withFormat(`/api/sales-history/agent/${h.A2.id}/export`, 'csv')), 404);
    expectStatus(await get(h.U1, withFormat(`/api/sales-history/user/${h.U3.id}/export`, 'csv')), 404);
    expectStatus(await get(h.S1, withFormat('/api/sales-history/filter/export', 'csv')), 403);
    const badFormat = await get(h.U1, withFormat(`/api/sales-history/user/${h.U1.id}/export`, 'pdf'));
    expectStatus(badFormat, 400);
    expect(badFormat.json<{ message: string }>().message).toContain('format must be csv or xlsx');
    expectStatus(await get(h.U1, withFormat(`/api/sales-history/user/${h.U1.id}/export`, 'csv', '&tz=Mars/Base')), 400);
    expectStatus(
      await get(h.U1, withFormat(`/api/sales-history/user/${h.U1.id}/export`, 'csv', '&from=yesterday')),
      400,
    );
    expectStatus(
      await t.request(null, { method: 'GET', url: `/api/sales-history/user/${h.U1.id}/export?format=csv` }),
      401,
    );
  });
});
