import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { csvRows } from '../packages/server/src/test/csv.ts';
import { DEMO, openPage, PHONE, signIn, useBrowser } from './support.ts';

/**
 * Exports from the screens (docs/product/reports.md#exports): the file the browser saves holds
 * the rows the screen counts, with the screen's filters, in CSV and in Excel.
 */

async function download(page: Page, button: string): Promise<{ name: string; body: Buffer }> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Export' }).getByRole('button', { name: button }).click(),
  ]);
  const path = await saved.path();
  return { name: saved.suggestedFilename(), body: await readFile(path) };
}

const figure = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).textContent())?.replace(/\D/g, ''));

describe('exports from the screens', () => {
  const browser = useBrowser();

  it("the admin's sales history, as CSV and Excel, holds every game the screen counts", async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await page.goto('/admin/sales-history');
    await expect.poll(() => figure(page, 'total-games'), { timeout: 10_000 }).toBeGreaterThan(0);
    const games = await figure(page, 'total-games');

    const csv = await download(page, 'CSV');
    expect(csv.name).toMatch(/^sales-history-until-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = csvRows(csv.body.toString('utf8'));
    expect(header?.[0]).toBe('Date');
    expect(rows).toHaveLength(games);

    const excel = await download(page, 'Excel');
    expect(excel.name).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.body as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.rowCount).toBe(games + 1);
    await page.context().close();
  });

  it("a user's transactions of one type, on a phone: the file has the screen's filter", async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.user);
    await page.goto('/transactions');
    await expect.poll(() => page.locator('[aria-busy="false"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByLabel('Transaction type').selectOption('game');
    // The list shows the filtered rows once every card on it is a game.
    const types = page
      .locator('[aria-busy="false"]')
      .getByText(/^(Game|Received|Sent|Top Up|Transfer|Correction|Take Back)$/);
    await expect.poll(async () => [...new Set(await types.allTextContents())], { timeout: 10_000 }).toEqual(['Game']);
    const pager = page.getByText(/Showing \d+ to \d+ of \d+ entries/);
    const shown = Number(/of (\d+) entries/.exec((await pager.textContent()) ?? '')?.[1]);
    expect(shown).toBeGreaterThan(0);

    const csv = await download(page, 'CSV');
    const [, ...rows] = csvRows(csv.body.toString('utf8'));
    expect(rows).toHaveLength(shown);
    for (const row of rows) expect(row[2]).toBe('game');
    await page.context().close();
  });

  it("a statement's file ends with the closing balance the screen shows", async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.user);
    await page.goto('/profile');
    await page.getByRole('link', { name: 'My statement' }).click();
    await expect.poll(() => page.getByTestId('statement-closing').textContent(), { timeout: 10_000 }).toMatch(/\$/);
    const closing = (await page.getByTestId('statement-closing').textContent())?.replace(/[$,]/g, '');

    const csv = await download(page, 'CSV');
    expect(csv.name).toMatch(/^statement-user1-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = csvRows(csv.body.toString('utf8'));
    expect(rows.at(-1)?.[1]).toBe('Closing balance');
    expect(rows.at(-1)?.[6]).toBe(closing);
    await page.context().close();
  });
});
