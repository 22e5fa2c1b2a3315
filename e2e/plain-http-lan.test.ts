import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import {
  apiAs,
  DEMO,
  drawPosition,
  freshUser,
  login,
  PHONE,
  publicUrl,
  screenshotOnFailure,
  sessionOf,
  signIn,
  textOf,
  useBrowser,
  visible,
  type Account,
  type GameEntry,
} from './support.ts';

/**
 * Issue 43: the README's shop-network set-up (`HOST=0.0.0.0 PUBLIC_URL=http://192.168.1.20:3000`)
 * as a customer's phone meets it. The server's PUBLIC_URL is `http://lot.test:<port>`, a name that
 * is not localhost, and this Chromium is NOT told to treat it as secure: the pages are what a LAN
 * address over plain http is, not a secure context. With `upgrade-insecure-requests` in the CSP the
 * browser fetched every script and style over https, which nothing serves, and each page stayed
 * blank; these pages must render and load everything they ask for.
 */

const browser = useBrowser({ plainHttp: true });
const SCREENSHOTS = 'test-results/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

const ENTRIES: GameEntry[] = [
  { number: 3, name: 'Marguerite Okonkwo', phoneNumber: '555-0103' },
  { number: 8, name: 'Bartholomew Quist', phoneNumber: '555-0108' },
  { number: 12, name: 'Ingrid Vasquez', phoneNumber: '555-0112' },
];

let shop: Account;
let game: Game;
let call: Awaited<ReturnType<typeof sessionOf>>;
beforeAll(async () => {
  shop = await freshUser('user', { fullName: `LAN Shop ${Date.now() % 100000}` });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: shop.id, amount: '100' } });
  await apiAs(login(shop), '/api/winners', { body: { name: 'Jackpot', percent: '50', position: 1, isActive: true } });
  call = await sessionOf(login(shop));
  const opened = await call<Game>('/api/games', { body: { startRange: 1, endRange: 20, betAmount: '10.00' } });
  game = await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: ENTRIES } });
});

/**
 * A phone's page opened at `path` on PUBLIC_URL, and everything it failed to load or run, as it
 * happens: by the page's load event nothing has failed (with the old header every script and style
 * had, each fetched over https), and the address is plain http and not a secure context.
 */
async function phonePage(path: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser().newContext({ viewport: PHONE, baseURL: publicUrl() });
  const page = await context.newPage();
  screenshotOnFailure(page);
  const problems: string[] = [];
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(path);
  expect(problems).toEqual([]);
  const url = new URL(page.url());
  expect(`${url.protocol}//${url.host}`).toBe(publicUrl());
  expect(url.protocol).toBe('http:');
  expect(url.hostname).toBe('lot.test');
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
  return { page, problems };
}

describe('plain http on a shop network (not a secure context)', () => {
  it('the sign-in page and a signed-in screen render', async () => {
    const { page, problems } = await phonePage('/login');
    expect(await visible(page.getByRole('button', { name: 'Sign in' }))).toBe(true);
    // Styled too: Tailwind's stylesheet loaded (an unstyled button keeps the browser's default).
    expect(
      await page.getByRole('button', { name: 'Sign in' }).evaluate((b) => getComputedStyle(b).borderRadius),
    ).not.toBe('0px');
    await signIn(page, login(shop));
    expect(await visible(page.getByRole('heading', { name: 'Quick Links', exact: true }))).toBe(true);
    // Its API calls answer too: the balance of 100.00 shows.
    expect(await visible(page.getByText('$100.00'))).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/plain-http-lan-dashboard.png` });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the customer display renders the game and shows a draw as it is made', async () => {
    const { page, problems } = await phonePage(`/display/${game.code}`);
    await expect.poll(() => page.getByTestId('display-connection').getAttribute('data-connection')).toBe('live');
    await expect.poll(() => textOf(page.getByTestId('display-shop'))).toBe(shop.fullName);
    await expect
      .poll(() => page.locator('[data-testid="display-number"][data-state="sold"]').count())
      .toBe(ENTRIES.length);

    const drawn: DrawResult = await drawPosition(call, game.id, 1);
    expect(drawn.game.status).toBe('settled');
    await page.waitForFunction(
      (number) =>
        document.querySelector(
          `[data-testid="display-spotlight"][data-number="${number}"], [data-testid="display-draw"][data-number="${number}"]`,
        ) !== null,
      drawn.number,
      { timeout: 10_000 },
    );
    await page.screenshot({ path: `${SCREENSHOTS}/plain-http-lan-display.png` });
    // The draw settled the game: its anonymous stream ends (decision 088) and the page closes it,
    // which the browser reports as an aborted request: that one is expected, nothing else.
    await expect.poll(() => page.getByTestId('display-connection').count()).toBe(0);
    const streamEnded = `${publicUrl()}/api/display/${game.code}/events: net::ERR_ABORTED`;
    expect(problems.filter((problem) => problem !== streamEnded)).toEqual([]);
    await page.context().close();
  });

  it("the game's proof page renders, and says this browser cannot check it over plain http", async () => {
    const { page, problems } = await phonePage(`/verify/${game.code}`);
    expect(await visible(page.getByText('LOT · Game verification'))).toBe(true);
    expect(await visible(page.getByTestId('verify-entry'))).toBe(true);
    expect(await page.getByTestId('verify-entry').count()).toBe(ENTRIES.length);
    // Web Crypto is for secure pages only: the proof shows, the check says where it can run.
    const cannot = page.getByRole('alert').filter({ hasText: 'This browser could not run the check' });
    expect(await visible(cannot)).toBe(true);
    expect(await cannot.textContent()).toContain('Open the page over https or on another device.');
    await page.screenshot({ path: `${SCREENSHOTS}/plain-http-lan-verify.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
