import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game } from '@lot/domain/schemas/games';
import { axeViolations, describeViolations } from './axe.ts';
import {
  apiAs,
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  login,
  PHONE,
  playGame,
  sampleGame,
  screenshotOnFailure,
  sessionOf,
  signIn,
  textOf,
  useBrowser,
  visible,
  type Account,
} from './support.ts';

/**
 * docs/product/screens.md#shift: a shop opens a shift with a float, reads its live X report, records
 * a pickup and a paid out while its agent takes cash back from the drawer, is refused a close while
 * a game is open, closes with counted cash short of the expected cash (a reason
 * required), and its Z report prints on a 58 mm roll, read back from the PDF. Its agent then finds the
 * shift on its dashboard card and in its Shifts list, and opens the report.
 */

const browser = useBrowser();
const SHOTS = 'test-results/screenshots';
const MM_TO_PT = 72 / 25.4;
const SHOP = 'Shift Test Corner Shop';
const REASON = 'Change given twice to one customer';
const PICKUP_REASON = 'Midday collection';
const PAID_OUT_REASON = 'Cleaning supplies';
const TAKE_BACK_REASON = 'Agent took cash from drawer';

let agent: Account;
let user: Account;
let page: Page;
let workDir: string;

const printsRecorded = (target: Page) => target.evaluate(() => (window as Window & { prints?: number }).prints ?? 0);

/** A new width, once the shell has laid itself out for it (the sidebar slides away below 768 px). */
async function resize(target: Page, size: { width: number; height: number }) {
  await target.setViewportSize(size);
  await expect
    .poll(() => target.locator('#sidebar').evaluate((aside) => aside.getBoundingClientRect().right))
    .toBeLessThanOrEqual(size.width < 768 ? 0 : Infinity);
}

/** Keeps a screenshot of the screen as it is, and checks it with axe (no serious or critical violation). */
async function shot(target: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const violations = await axeViolations(target);
  expect(violations, describeViolations(name, violations)).toEqual([]);
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'lot-shifts-'));
  const superagent = await freshUser('superagent');
  agent = await freshUser('agent', { parentId: superagent.id, fullName: 'Shift Test Agent' });
  user = await freshUser('user', { parentId: agent.id, fullName: 'Shift Test Owner' });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: '1000' } });
  await apiAs(DEMO.admin, `/api/users/${user.id}`, { method: 'PUT', body: { shopName: SHOP } });
  await apiAs(login(user), '/api/winners', { body: { name: 'P1', percent: '50', position: 1, isActive: true } });

  const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl() });
  // window.print opens a dialog headless Chromium cannot close: count the calls instead.
  await context.addInitScript(() => {
    const recorder = window as Window & { prints?: number };
    recorder.prints = 0;
    window.print = () => {
      recorder.prints = (recorder.prints ?? 0) + 1;
    };
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, login(user));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('a shop’s shift', () => {
  it('opens with a float and shows the live X report: a settled game’s bets in the expected cash', async () => {
    screenshotOnFailure(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shift', exact: true }).click();
    await page.waitForURL(/\/user\/shift$/);
    expect(await visible(page.getByText('No shift open'))).toBe(true);
    expect(await visible(page.getByText('No closed shifts yet.'))).toBe(true);

    // A float that is not an amount is refused by the API's own schema, in the browser.
    await page.getByLabel('Opening float').fill('-5');
    await page.getByRole('button', { name: 'Open shift' }).click();
    expect(await visible(page.getByText('Please enter a valid amount of 0 or more'))).toBe(true);
    await page.getByLabel('Opening float').fill('100');
    await page.getByRole('button', { name: 'Open shift' }).click();
    const report = page.getByTestId('shift-report');
    expect(await visible(report)).toBe(true);
    expect(await textOf(page.getByTestId('shift-report-title'))).toBe('X report');
    expect(await textOf(page.getByTestId('report-expected'))).toBe('$100.00');
    expect(await visible(page.getByText('No games in this shift yet.'))).toBe(true);

    // A game played while the shift is open: 3 × $10 collected, its prize unpaid (not paid from the drawer).
    const game: Game = await playGame(login(user), sampleGame(10));
    expect(game.status).toBe('settled');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => textOf(page.getByTestId('report-expected'))).toBe('$130.00');
    expect(await textOf(page.getByTestId('report-bets'))).toBe('$30.00');
    expect(await textOf(page.getByTestId('report-total-games'))).toBe('1');
    expect(await textOf(page.getByTestId('report-total-unpaid'))).toBe('$15.00');
    expect(await page.getByTestId('report-game').innerText()).toContain(game.code);
    expect(await page.getByTestId('report-unpaid-prize').count()).toBe(1);

    // Cash movements (docs/product/shifts.md#cash-movements): a pickup and a paid out through the
    // dialog, and the agent's take-back from the drawer; each moves the expected cash.
    await page.getByRole('button', { name: 'Cash movement' }).click();
    const moving = page.getByRole('dialog', { name: 'Cash movement' });
    await moving.getByLabel('Amount').fill('20');
    await moving.getByLabel('Reason').fill(PICKUP_REASON);
    await moving.getByRole('button', { name: 'Record' }).click();
    // A pickup names who took the cash.
    expect(await visible(moving.getByText('Say who took the cash'))).toBe(true);
    await moving.getByLabel('Taken by').fill('Shift Test Agent');
    await moving.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => textOf(page.getByTestId('report-expected'))).toBe('$110.00');
    await page.getByRole('button', { name: 'Cash movement' }).click();
    await moving.getByLabel('Kind').selectOption('paid_out');
    await moving.getByLabel('Amount').fill('7.50');
    await moving.getByLabel('Reason').fill(PAID_OUT_REASON);
    await shot(page, 'shift-movement-dialog-1280');
    await moving.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => textOf(page.getByTestId('report-expected'))).toBe('$102.50');
    await apiAs(login(agent), '/api/balance/take-back', {
      body: { userId: user.id, amount: '10.00', reason: TAKE_BACK_REASON, fromDrawer: true },
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    // 100 + 30 − 20 − 7.50 − 10
    await expect.poll(() => textOf(page.getByTestId('report-expected'))).toBe('$92.50');
    expect(await textOf(page.getByTestId('report-movements-net'))).toBe('−$37.50');
    expect(await page.getByTestId('report-movement').count()).toBe(3);

    // Print X report goes to the browser's print with the report alone.
    const before = await printsRecorded(page);
    await page.getByRole('button', { name: 'Print X report' }).click();
    await expect.poll(() => printsRecorded(page)).toBe(before + 1);
    expect(await page.getByTestId('report-print-sheet').textContent()).toContain('X report');
    await shot(page, 'shift-x-report-1280');
    await resize(page, PHONE);
    await shot(page, 'shift-x-report-375');
    await resize(page, DESKTOP);
  });

  it('refuses a close while a game is open, then closes short with a reason and prints the Z report at 58 mm', async () => {
    screenshotOnFailure(page);
    const call = await sessionOf(login(user));
    const open = await call<Game>('/api/games', { body: { startRange: 1, endRange: 5, betAmount: '5.00' } });

    await page.getByText('58 mm', { exact: true }).click();
    await page.getByRole('button', { name: 'Close shift' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close shift' });
    expect(await visible(dialog)).toBe(true);
    expect(await textOf(dialog.getByTestId('close-expected'))).toBe('$92.50');
    await dialog.getByLabel('Counted cash').fill('87.50');
    // The difference as it is typed, and a reason required for it.
    expect(await textOf(dialog.getByTestId('close-difference'))).toBe('Short $5.00');
    await dialog.getByRole('button', { name: 'Close shift' }).click();
    expect(await visible(dialog.getByText('Give a reason for the difference'))).toBe(true);
    await dialog.getByLabel('Reason for the difference').fill(REASON);
    await shot(page, 'shift-close-dialog-1280');
    await resize(page, PHONE);
    await shot(page, 'shift-close-dialog-375');
    await resize(page, DESKTOP);

    // The open game stops the close: the server's words stay in the dialog, nothing is closed.
    await dialog.getByRole('button', { name: 'Close shift' }).click();
    expect(await visible(dialog.getByText('Finish or discard the game in progress before closing the shift'))).toBe(
      true,
    );
    await call(`/api/games/${open.id}/void`, { body: { reason: 'Not played' } });

    const before = await printsRecorded(page);
    await dialog.getByRole('button', { name: 'Close shift' }).click();
    const done = page.getByTestId('z-report-done');
    expect(await visible(done)).toBe(true);
    expect(await textOf(page.getByTestId('shift-report-title'))).toMatch(/^Z report no\. \d+$/);
    const zTitle = await textOf(page.getByTestId('shift-report-title'));
    expect(zTitle).toBe('Z report no. 1');
    expect(await textOf(page.getByTestId('report-counted'))).toBe('$87.50');
    expect(await textOf(page.getByTestId('report-variance'))).toBe('Short $5.00');
    expect(await textOf(page.getByTestId('report-variance-reason'))).toBe(`Reason: ${REASON}`);
    // The Z report printed at once, on the roll chosen.
    await expect.poll(() => printsRecorded(page)).toBe(before + 1);
    await shot(page, 'shift-z-report-1280');

    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    await page.emulateMedia({ media: 'screen' });
    const file = join(workDir, 'z-report.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1\n/);
    const [, width] = /Page size:\s+([\d.]+) x [\d.]+ pts/.exec(info) ?? [];
    expect(Math.abs(Number(width) - 58 * MM_TO_PT)).toBeLessThan(0.6);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const expected of [SHOP, 'Z REPORT NO. 1', '$100.00', '$30.00', '$92.50', '$87.50', 'Short $5.00', REASON]) {
      expect(text).toContain(expected);
    }
    // Each cash line of the drawer prints at 58 mm: the sums and every movement with who and why.
    for (const expected of [
      '+ Paid in $0.00',
      '− Pickups $30.00',
      '− Drops $0.00',
      '− Paid out $7.50',
      'CASH MOVEMENTS',
      'Pickup',
      '−$20.00',
      `Shift Test Agent · ${PICKUP_REASON}`,
      'Paid out',
      '−$7.50',
      PAID_OUT_REASON,
      '−$10.00',
      `Shift Test Agent · ${TAKE_BACK_REASON}`,
      'from the drawer',
    ])
      // pdftotext breaks a wrapped line inside a word: compared without white space.
      expect(text.replace(/\s/g, '')).toContain(expected.replace(/\s/g, ''));
    // Nothing of the app prints with it.
    for (const shell of ['Lottery Game', 'Logout', 'Past shifts', 'Print Z report']) expect(text).not.toContain(shell);
    execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', file, join(workDir, 'z-report')]);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(`${SHOTS}/shift-z-report-58mm.png`, readFileSync(join(workDir, 'z-report.png')));

    // Done: a new shift can be opened; the closed one is among the past shifts.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await visible(page.getByText('No shift open'))).toBe(true);
    const past = page.getByTestId('shift-row');
    await expect.poll(() => past.count()).toBe(1);
    expect(await textOf(past.getByTestId('shift-z'))).toBe('Z 1');
    await resize(page, PHONE);
    await shot(page, 'shift-z-report-done-375');

    // The shop uses shifts and none is open: the play screen says so, with the way to open one.
    await resize(page, DESKTOP);
    await page.goto('/user/number-game/play');
    const banner = page.getByTestId('no-shift-banner');
    expect(await visible(banner)).toBe(true);
    expect(await textOf(banner)).toContain('No shift open.');
    await shot(page, 'play-no-shift-banner-1280');
    // The play screen is outside the shell: no sidebar to wait for.
    await page.setViewportSize(PHONE);
    await shot(page, 'play-no-shift-banner-375');
    await banner.getByRole('link', { name: 'Open a shift' }).click();
    await page.waitForURL(/\/user\/shift$/);
    await page.context().close();
  });
});

describe('the upline', () => {
  it('sees the closed shift on its dashboard card and in its Shifts list, and opens its Z report', async () => {
    const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl() });
    const upline = await context.newPage();
    upline.setDefaultTimeout(15_000);
    screenshotOnFailure(upline);
    await signIn(upline, login(agent));

    const card = upline.getByTestId('shifts-summary');
    expect(await visible(card.getByTestId('shifts-open'))).toBe(true);
    expect(await textOf(card.getByTestId('shifts-open'))).toBe('0');
    expect(await textOf(card.getByTestId('shifts-closed-today'))).toBe('1');
    expect(await textOf(card.getByTestId('shifts-short-today'))).toBe('1');
    expect(await textOf(card.getByTestId('shifts-variance-today'))).toBe('Short $5.00');
    await card.scrollIntoViewIfNeeded();
    await upline.screenshot({ path: `${SHOTS}/shifts-dashboard-card-1280.png` });
    await resize(upline, PHONE);
    await card.scrollIntoViewIfNeeded();
    await upline.screenshot({ path: `${SHOTS}/shifts-dashboard-card-375.png` });
    await resize(upline, DESKTOP);

    await upline.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shifts', exact: true }).click();
    await upline.waitForURL(/\/agent\/shifts$/);
    const row = upline.getByTestId('shift-row');
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    for (const expected of [SHOP, 'Z 1', '$100.00', '$92.50', '$87.50', 'Short $5.00'])
      expect(text).toContain(expected);
    expect(await row.getByTestId('shift-variance').getAttribute('class')).toContain('text-rose-700');
    await shot(upline, 'shifts-list-1280');
    await resize(upline, PHONE);
    await shot(upline, 'shifts-list-375');
    await resize(upline, DESKTOP);

    // The list exports as the other lists do: the filtered shifts as a CSV file.
    const download = upline.waitForEvent('download');
    await upline.getByRole('button', { name: 'CSV' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    expect(csv).toContain(SHOP);
    expect(csv).toContain('87.50');
    expect(csv).toContain('-5.00');

    // The filters: no open shift; the shop picked by name; Reset filters brings every shift back.
    const total = upline.getByTestId('shifts-total');
    await upline.getByLabel('Status').selectOption('open');
    await expect.poll(() => textOf(total)).toBe('0 shifts');
    expect(await visible(upline.getByText('No shifts match these filters.'))).toBe(true);
    await upline.getByRole('button', { name: 'Reset filters' }).click();
    await expect.poll(() => row.count()).toBe(1);
    await upline.getByLabel('Shop', { exact: true }).selectOption({ label: `${SHOP} (${user.username})` });
    await expect.poll(() => textOf(total)).toBe('1 shift');
    await upline.getByRole('button', { name: 'Reset filters' }).click();

    await row.getByRole('link', { name: /^Z report 1 of / }).click();
    await upline.waitForURL(/\/shifts\/\d+$/);
    expect(await textOf(upline.getByTestId('shift-report-title'))).toBe('Z report no. 1');
    expect(await textOf(upline.getByTestId('report-variance'))).toBe('Short $5.00');
    expect(await visible(upline.getByRole('button', { name: 'Print Z report' }))).toBe(true);
    await shot(upline, 'shift-report-page-1280');

    // The list's address can name the status (docs/product/screens.md): ?status=open finds none.
    await upline.goto('/agent/shifts?status=open');
    expect(await upline.getByLabel('Status').inputValue()).toBe('open');
    await expect.poll(() => textOf(total)).toBe('0 shifts');
    await context.close();
  });
});
