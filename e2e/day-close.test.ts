import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import type { Game } from '@lot/domain/schemas/games';
import {
  apiAs,
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  hidden,
  login,
  PHONE,
  playGame,
  sampleGame,
  screenshotOnFailure,
  sessionOf,
  signIn,
  textOf,
  visible,
  useBrowser,
  type Account,
} from './support.ts';

/**
 * The day close screen (docs/product/screens.md#day-close): a shop's day — money in from the admin
 * and the upline, a transfer out, money taken back by the upline, settled games, a game voided after its first draw — as the sheet
 * shows it in the browser's own time zone, adding up, agreeing with the API, and printed on A4.
 */

const browser = useBrowser();

/**
 * A zone 14 hours ahead of UTC: for ten hours of every UTC day its date is already the next one,
 * so a screen that did not send its zone would ask the server for a day that has not started.
 */
const ZONE = 'Pacific/Kiritimati';
const SHOTS = 'test-results/screenshots';
const tag = `dc${Date.now().toString(36)}`;

let shop: Account;
let shopName: string;
const money = { topup: '200.00', transferIn: '300.00', transferOut: '45.50', takenBack: '25.00' };
const settled: Game[] = [];
let voided: Game;

/** Today as YYYY-MM-DD in the zone, and `offset` days away. */
function zoneDay(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

/** The day as the sheet writes it: "Nov 23, 2026". */
const written = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** "$1,234.50", "+$5.00", "-$5.00" as a person reads them, in cents. */
function cents(text: string | null): number {
  const match = /^([+\-−]?)\$([\d,]+\.\d{2})$/.exec((text ?? '').trim());
  if (!match?.[2]) throw new Error(`not an amount: ${text}`);
  const value = decimalToCents(match[2].replaceAll(',', ''));
  return match[1] === '-' || match[1] === '−' ? -value : value;
}

const read = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? '';
const amountOf = async (page: Page, testId: string) => cents(await read(page, testId));

async function openDayClose(viewport = DESKTOP): Promise<Page> {
  const context = await browser().newContext({ viewport, baseURL: baseUrl(), timezoneId: ZONE });
  const page = await context.newPage();
  screenshotOnFailure(page);
  await signIn(page, login(shop));
  // From the menu where it stands beside the page; on a phone the menu is closed, the address works.
  if (viewport === PHONE) await page.goto('/user/day-close');
  else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance Statement' }).click();
  await page.waitForURL(/\/user\/day-close$/);
  await visible(page.getByTestId('day-close-sheet'));
  return page;
}

beforeAll(async () => {
  const superagent = await freshUser('superagent', { fullName: `Dayclose Super ${tag}` });
  const agent = await freshUser('agent', { parentId: superagent.id, fullName: `Dayclose Agent ${tag}` });
  shop = await freshUser('user', { parentId: agent.id, fullName: `Dayclose Shop ${tag}` });
  const neighbour = await freshUser('user', { parentId: agent.id, fullName: `Dayclose Neighbour ${tag}` });
  shopName = `Corner Kiosk ${tag}`;
  await apiAs(DEMO.admin, `/api/users/${shop.id}`, { method: 'PUT', body: { shopName } });

  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: agent.id, amount: '1000.00' } });
  await apiAs(login(agent), '/api/balance/transfer', { body: { receiverId: shop.id, amount: money.transferIn } });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: shop.id, amount: money.topup } });
  const asShop = await sessionOf(login(shop));
  await asShop('/api/balance/transfer', { body: { receiverId: neighbour.id, amount: money.transferOut } });
  await apiAs(login(agent), '/api/balance/take-back', {
    body: { userId: shop.id, amount: money.takenBack, reason: 'Till short' },
  });
  await asShop('/api/winners', { body: { name: 'First', percent: '50', position: 1, isActive: true } });
  await asShop('/api/winners', { body: { name: 'Second', percent: '25', position: 2, isActive: true } });

  settled.push(await playGame(login(shop), sampleGame(4)), await playGame(login(shop), sampleGame(6)));
  // Drawn once, so its pool is held, then voided by its agent (a frozen game is no longer the shop's
  // to void): the pool comes back the same day.
  const drawing = await playGame(login(shop), sampleGame(5), { draws: 1 });
  voided = await apiAs<Game>(login(agent), `/api/games/${drawing.id}/void`, {
    body: { reason: 'The customer left', afterWinner: true },
  });
  expect(settled.map((game) => game.status)).toEqual(['settled', 'settled']);
  expect(voided.status).toBe('voided');
}, 60_000);

describe('day close screen', () => {
  it("today's sheet: every figure of the day, opening + net = closing, and the closing is the balance now", async () => {
    const page = await openDayClose();
    expect(await read(page, 'day-close-shop')).toBe(shopName);
    expect(await read(page, 'day-close-day')).toBe(`Day of ${written(zoneDay())}, ${ZONE} (00:00–24:00)`);
    expect(await page.getByLabel('Day').inputValue()).toBe(zoneDay());

    const pool = (games: Game[]) => games.reduce((sum, game) => sum + decimalToCents(game.pool), 0);
    const held = pool([...settled, voided]);
    expect(await amountOf(page, 'movement-topups-in')).toBe(decimalToCents(money.topup));
    expect(await amountOf(page, 'movement-transfers-in')).toBe(decimalToCents(money.transferIn));
    expect(await amountOf(page, 'movement-transfers-out')).toBe(-decimalToCents(money.transferOut));
    expect(await amountOf(page, 'movement-corrections')).toBe(0);
    expect(await amountOf(page, 'movement-taken-back')).toBe(-decimalToCents(money.takenBack));
    expect(await amountOf(page, 'movement-pools-held')).toBe(-held);
    expect(await amountOf(page, 'movement-pools-returned')).toBe(pool([voided]));

    expect(await read(page, 'games-settled')).toBe('2');
    expect(await read(page, 'games-voided')).toBe('1');
    expect(await read(page, 'games-numbers-sold')).toBe('6');
    expect(await amountOf(page, 'games-pool')).toBe(pool(settled));
    const prizes = settled.reduce((sum, game) => sum + decimalToCents(game.totalPrize ?? '0'), 0);
    expect(await amountOf(page, 'games-prizes')).toBe(prizes);
    expect(await amountOf(page, 'games-commission')).toBe(pool(settled) - prizes);

    // The figures add up as the page shows them.
    const lines = [
      'movement-topups-in',
      'movement-transfers-in',
      'movement-transfers-out',
      'movement-corrections',
      'movement-taken-back',
      'movement-pools-held',
      'movement-pools-returned',
    ];
    let movements = 0;
    for (const line of lines) movements += await amountOf(page, line);
    const net = await amountOf(page, 'movement-net');
    expect(net).toBe(movements);
    const opening = await amountOf(page, 'opening-balance');
    const sign = (await read(page, 'net-operator')) === '−' ? -1 : 1;
    expect(sign * (await amountOf(page, 'net-movement'))).toBe(net);
    const closing = await amountOf(page, 'closing-balance');
    expect(opening + net).toBe(closing);
    // A fresh shop: nothing before today.
    expect(opening).toBe(0);
    const balance = await apiAs<{ amount: string }>(login(shop), '/api/balance');
    expect(closing).toBe(decimalToCents(balance.amount));
    expect(await page.getByRole('button', { name: 'Next day' }).isDisabled()).toBe(true);
    // The balance statement, not the cash count: the prizes are those won, and the cash is the shift's.
    expect(await visible(page.getByText('Prizes won', { exact: true }))).toBe(true);
    expect(await page.getByRole('link', { name: 'shift', exact: true }).getAttribute('href')).toBe('/user/shift');

    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/day-close-desktop.png`, fullPage: true });
    await page.context().close();
  });

  it('the previous day: a quiet day whose closing is its opening and today’s opening; a day after today is refused', async () => {
    const page = await openDayClose(PHONE);
    const todayOpening = await read(page, 'opening-balance');
    await page.getByRole('button', { name: 'Previous day' }).click();
    await page.waitForURL(new RegExp(`date=${zoneDay(-1)}$`));
    await expect
      .poll(() => textOf(page.getByTestId('day-close-day')))
      .toBe(`Day of ${written(zoneDay(-1))}, ${ZONE} (00:00–24:00)`);
    expect(await visible(page.getByTestId('day-close-quiet'))).toBe(true);
    expect(await read(page, 'closing-balance')).toBe(await read(page, 'opening-balance'));
    expect(await read(page, 'closing-balance')).toBe(todayOpening);
    expect(await read(page, 'games-settled')).toBe('0');
    expect(await read(page, 'movement-net')).toBe(formatMoney(0));
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/day-close-phone.png`, fullPage: true });

    // Tomorrow cannot be chosen: a message, and the sheet stays on the day it showed.
    await page.getByLabel('Day').fill(zoneDay(1));
    expect(await visible(page.getByText('Choose today or an earlier day.'))).toBe(true);
    expect(await read(page, 'day-close-day')).toContain(written(zoneDay(-1)));

    await page.getByRole('button', { name: 'Next day' }).click();
    await page.waitForURL(/\/user\/day-close$/);
    expect(await hidden(page.getByTestId('day-close-quiet'))).toBe(true);
    expect(await read(page, 'day-close-day')).toContain(written(zoneDay()));

    // A day in the address that is not a day, or is still to come, is refused and said, never another day shown.
    for (const [asked, why] of [
      ['garbage', 'date must be a day as YYYY-MM-DD'],
      [zoneDay(1), `date cannot be after today (${zoneDay()} in ${ZONE})`],
    ] as const) {
      await page.goto(`/user/day-close?date=${asked}`);
      const refusal = page.getByRole('alert').filter({ hasText: `No balance statement for “${asked}”: ${why}.` });
      expect(await visible(refusal, 15_000), asked).toBe(true);
      expect(await hidden(page.getByTestId('day-close-sheet'))).toBe(true);
    }
    await page.getByRole('button', { name: 'Show today' }).click();
    await page.waitForURL(/\/user\/day-close$/);
    expect(await read(page, 'day-close-day')).toContain(written(zoneDay()));
    await page.context().close();
  });

  it('a failed load says so and Try Again loads the sheet', async () => {
    const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl(), timezoneId: ZONE });
    const page = await context.newPage();
    screenshotOnFailure(page);
    await signIn(page, login(shop));
    const failing = '**/api/reports/day-close?*';
    await page.route(failing, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'UNAVAILABLE', message: 'The server is busy, try again' }),
      }),
    );
    await page.goto('/user/day-close');
    const error = page.getByRole('alert').filter({ hasText: 'The server is busy, try again' });
    expect(await visible(error, 15_000)).toBe(true);
    await page.unroute(failing);
    await error.getByRole('button', { name: 'Try Again' }).click();
    expect(await visible(page.getByTestId('day-close-sheet'))).toBe(true);
    expect(await read(page, 'day-close-shop')).toBe(shopName);
    await context.close();
  });

  it('prints the sheet alone on one A4 page: shop, day, zone and the time it was printed, no menu', async () => {
    const page = await openDayClose();
    const closing = await read(page, 'closing-balance');
    await page.emulateMedia({ media: 'print' });
    expect(await hidden(page.getByRole('navigation', { name: 'Main' }))).toBe(true);
    expect(await hidden(page.getByRole('button', { name: 'Previous day' }))).toBe(true);
    const printed = await read(page, 'day-close-printed');
    expect(printed).toMatch(new RegExp(`^Printed ${written(zoneDay())}, \\d{1,2}:\\d{2} [AP]M$`));

    // The page size is the screen's own (@page A4), not one the test asks for.
    const pdf = await page.pdf({ preferCSSPageSize: true });
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(`${SHOTS}/day-close.pdf`, pdf);
    const info = execFileSync('pdfinfo', [`${SHOTS}/day-close.pdf`], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:.*\(A4\)/);
    const text = execFileSync('pdftotext', ['-layout', `${SHOTS}/day-close.pdf`, '-'], { encoding: 'utf8' });
    for (const expected of [
      shopName,
      written(zoneDay()),
      ZONE,
      // The time is read again as the sheet prints: the minute may have turned since.
      printed.replace(/\d{1,2}:\d{2} [AP]M$/, ''),
      'Closing balance',
      closing,
      'Game pools held',
      'Taken back',
    ]) {
      // Some labels print in capitals, as they show.
      expect(text.toLowerCase()).toContain(expected.toLowerCase());
    }
    for (const shell of ['Lottery Game', 'Game History', 'Winner Settings', 'Logout', 'Previous day', 'Next day']) {
      expect(text).not.toContain(shell);
    }
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', `${SHOTS}/day-close.pdf`, `${SHOTS}/day-close-print`]);
    await page.context().close();
  });
});
