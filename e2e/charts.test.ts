import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents } from '@lot/domain/money';
import type { Activity } from '@lot/domain/schemas/reports';
import {
  apiAs,
  day,
  DEMO,
  DESKTOP,
  freshUser,
  login,
  openPage,
  PHONE,
  player,
  signIn,
  useBrowser,
  type Account,
} from './support.ts';

const browser = useBrowser();
const SHOTS = 'test-results/screenshots';
const BET = 4;
const GAMES = 3;

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    // Loaded at that width, as a phone would (the shell keeps its menu's state across a resize).
    await page.reload();
    await page.getByTestId('activity-plot').locator('canvas').waitFor();
    await page.screenshot({ path: `${SHOTS}/${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
  await page.reload();
}

/** Waits until the chart has its figures (drawn, or its empty state) and answers that state. */
async function chartState(page: Page): Promise<string | null> {
  const chart = page.getByTestId('activity-chart');
  await chart.waitFor();
  return chart.getAttribute('data-state');
}

/** The figures the chart's table shows, day by day, as the API writes them. */
async function chartDays(page: Page) {
  return page.getByTestId('activity-day').evaluateAll((rows) =>
    rows.map((row) => ({
      date: row.getAttribute('data-date'),
      games: Number(row.getAttribute('data-games')),
      poolCents: Number(row.getAttribute('data-pool-cents')),
      commissionCents: Number(row.getAttribute('data-commission-cents')),
    })),
  );
}

const apiDays = (activity: Activity) =>
  activity.days.map((entry) => ({
    date: entry.date,
    games: entry.games,
    poolCents: decimalToCents(entry.pool),
    commissionCents: decimalToCents(entry.commission),
  }));

/** Every column of the downline table is in view at 1280 px: its frame does not scroll sideways. */
async function fitsAt1280(page: Page): Promise<boolean> {
  await page.setViewportSize(DESKTOP);
  const table = page.locator('table').filter({ has: page.getByTestId('report-row') });
  return table.evaluate((element) => {
    const frame = element.parentElement;
    return frame ? frame.scrollWidth <= frame.clientWidth : false;
  });
}

const browserZone = (page: Page) => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

/** A branch of its own (super agent → agent → user with GAMES games), so no other test file changes its figures. */
let superagent: Account;
let agent: Account;
let shop: Account;

beforeAll(async () => {
  superagent = await freshUser('superagent', { fullName: 'Chart Super' });
  agent = await freshUser('agent', { parentId: superagent.id, fullName: 'Chart Agent' });
  shop = await player({ parentId: agent.id, fullName: 'Chart Shop', games: GAMES, bet: BET });
}, 60_000);

describe('activity charts', () => {
  it("the admin dashboard draws everyone's last 30 days as the API answers them, and says what the volume counts", async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    const tz = await browserZone(page);
    // Other test files play games at the same time: compare a consistent pair.
    let shown: Awaited<ReturnType<typeof chartDays>> = [];
    let answered: Activity | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      answered = await apiAs<Activity>(DEMO.admin, `/api/reports/activity?days=30&tz=${encodeURIComponent(tz)}`);
      await page.goto('/admin/dashboard');
      expect(await chartState(page)).toBe('ready');
      shown = await chartDays(page);
      if (JSON.stringify(shown) === JSON.stringify(apiDays(answered))) break;
    }
    if (!answered) throw new Error('no answer');
    expect(shown).toEqual(apiDays(answered));
    expect(shown).toHaveLength(30);
    // The drawing is there, and says what it shows.
    await page.getByTestId('activity-plot').locator('canvas').waitFor();
    expect(await page.getByTestId('activity-plot').getAttribute('aria-label')).toContain(
      `${answered.totals.games.toLocaleString('en-US')} games in all`,
    );
    const volume = page.getByTestId('stat-volume');
    await volume.getByTestId('change').waitFor();
    expect(await volume.textContent()).toContain('Top-ups in the last 30 days: money that entered the system');
    expect(await page.getByTestId('stat-users').getByTestId('change').textContent()).toMatch(
      /in the last 30 days · (\+[\d,]+|none) the 30 before$/,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
    await shoot(page, 'charts-admin-dashboard');
  });

  it("a super agent's dashboard draws only its branch's games, its agent and user dashboards theirs", async () => {
    const page = await openPage(browser());
    for (const [account, path] of [
      [superagent, '/superagent/dashboard'],
      [agent, '/agent/dashboard'],
      [shop, '/user/dashboard'],
    ] as const) {
      await signIn(page, login(account));
      expect(page.url()).toContain(path);
      const answered = await apiAs<Activity>(
        login(account),
        `/api/reports/activity?days=30&tz=${encodeURIComponent(await browserZone(page))}`,
      );
      expect(await chartState(page)).toBe('ready');
      expect(await chartDays(page)).toEqual(apiDays(answered));
      // Exactly the branch's games: nobody else's.
      expect(answered.totals.games).toBe(GAMES);
      expect(answered.days.find((entry) => entry.date === day(0))?.pool).toBe((GAMES * 3 * BET).toFixed(2));
      expect(await page.getByTestId('activity-summary').textContent()).toContain(`${GAMES} games in the last 30 days`);
      await page.getByTestId('activity-plot').locator('canvas').waitFor();
      // The line switches between the pool and the commission.
      await page.getByRole('button', { name: 'Commission', pressed: false }).click();
      await page.getByRole('button', { name: 'Commission', pressed: true }).waitFor();
      expect(await page.getByTestId('activity-plot').getAttribute('aria-label')).toContain('line of the commission');
      // Nothing widens the page at 1280 px (the chart follows its card; a wide table scrolls inside its own).
      await page.getByTestId('activity-plot').locator('canvas').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
      await shoot(page, `charts-${account === shop ? 'user' : account === agent ? 'agent' : 'superagent'}-dashboard`);
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
    }
    // The super agent's Agents card counts its new agent.
    await signIn(page, login(superagent));
    const agents = page.getByTestId('stat-agents').getByTestId('change');
    await agents.waitFor();
    expect(await agents.textContent()).toBe('+1 in the last 30 days · none the 30 before');
  });

  it('the reports screen shows the chart of the period, and drilling down still works', async () => {
    const page = await openPage(browser());
    await signIn(page, login(superagent));
    await page.goto(`/superagent/reports?from=${day(-6)}&to=${day(0)}`);
    expect(await chartState(page)).toBe('ready');
    const rows = await chartDays(page);
    expect(rows.map((row) => row.date)).toEqual(Array.from({ length: 7 }, (_, index) => day(index - 6)));
    expect(rows.reduce((sum, row) => sum + row.games, 0)).toBe(GAMES);
    await page.getByTestId('activity-plot').locator('canvas').waitFor();
    await shoot(page, 'charts-reports');
    // Every column fits at 1280 px: the table does not scroll sideways.
    expect(await fitsAt1280(page)).toBe(true);
    await page.getByTestId('report-row').filter({ hasText: 'Chart Agent' }).getByTestId('drill-down').click();
    await page.getByTestId('crumb-current').filter({ hasText: 'Chart Agent' }).waitFor();
    await page.getByTestId('report-row').filter({ hasText: 'Chart Shop' }).waitFor();
    expect(await chartState(page)).toBe('ready');
    // The admin's report (the demo's larger sums) fits too, whatever people other test files made:
    // its top level lists every super agent, here one with the longest username and a long name.
    await freshUser('superagent', {
      username: `e2e_long_${process.pid}_${Date.now() % 100000}_`.padEnd(50, 'x'),
      fullName: `Chart ${'Longname'.repeat(11)}`,
    });
    const admin = await openPage(browser());
    await signIn(admin, DEMO.admin);
    await admin.goto(`/admin/reports?from=${day(-29)}&to=${day(0)}`);
    await admin.getByTestId('report-row').first().waitFor();
    expect(await chartState(admin)).toBe('ready');
    await admin.getByTestId('activity-plot').locator('canvas').waitFor();
    expect(await fitsAt1280(admin)).toBe(true);
    await shoot(admin, 'charts-admin-reports');
  });

  it('a period without games says so; a failed load says why and tries again', async () => {
    const page = await openPage(browser());
    const empty = await freshUser('agent', { parentId: superagent.id, fullName: 'Chart Empty Agent' });
    let failures = 2; // a 500 is retried once
    await page.route('**/api/reports/activity?*', async (route) => {
      if (failures-- > 0) {
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"message":"down","code":"INTERNAL"}',
        });
      } else await route.continue();
    });
    await signIn(page, login(empty));
    const alert = page.getByRole('alert').filter({ hasText: 'down' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Try Again' }).click();
    expect(await chartState(page)).toBe('empty');
    expect(await page.getByTestId('activity-chart').textContent()).toBe('No games in this period');
  });
});
