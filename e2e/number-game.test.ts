import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Sale, SaleDetail } from '@lot/domain/schemas/sales-history';
import {
  apiAs,
  attributeBecomes,
  baseUrl,
  DEMO,
  freshUser,
  openPage,
  PHONE,
  signIn,
  useBrowser,
  visible,
} from './support.ts';

const browser = useBrowser();

type Account = Awaited<ReturnType<typeof freshUser>>;
const login = ({ username, password }: Account) => ({ username, password });

/** A player of this file: a balance and, unless told otherwise, its own prizes (so the test knows the split). */
async function player(
  balance: string,
  prizes: [string, string][] = [
    ['Jackpot', '50'],
    ['Runner-up', '25'],
  ],
) {
  const user = await freshUser('user', { fullName: `Game Player ${Date.now() % 100000}` });
  if (balance !== '0') await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: balance } });
  for (const [index, [name, percent]] of prizes.entries()) {
    await apiAs(login(user), '/api/winners', { body: { name, percent, position: index + 1, isActive: true } });
  }
  return user;
}

const games = (user: Account) => apiAs<Sale[]>(login(user), `/api/sales-history/user/${user.id}`);
const balanceOf = async (user: Account) => (await apiAs<{ amount: string }>(login(user), '/api/balance')).amount;

const checkWinner = (page: Page) => page.getByRole('button', { name: /^Check Winner/ });
/**
 * Check Winner is aria-disabled when it cannot draw, yet still answers a click with the reason;
 * playwright will not click an aria-disabled element unless forced, a person can.
 */
const pressCheckWinner = (page: Page) => checkWinner(page).click({ force: true });
const grid = (page: Page) => page.getByRole('group', { name: 'Numbers' });
const tile = (page: Page, number: number) => grid(page).getByRole('button', { name: String(number), exact: true });
const alertText = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function openGame(page: Page, user: Account, prizeCount = 2) {
  await signIn(page, login(user));
  await page.goto('/user/number-game/play');
  await visible(page.getByRole('button', { name: `Check Winner (0/${prizeCount})` }));
}

async function setup(page: Page, start: number, end: number, bet: string) {
  await page.getByLabel('Range start').fill(String(start));
  await page.getByLabel('Range end').fill(String(end));
  await page.getByLabel('Bet Amount').fill(bet);
}

async function choose(page: Page, number: number, name: string, phone = `555-${1000 + number}`) {
  await tile(page, number).click();
  const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
  await visible(dialog);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Phone Number').fill(phone);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await attributeBecomes(tile(page, number), 'aria-pressed', 'true');
}

/** Waits until the condition holds (playwright-core has no auto-waiting expect). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeout = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - started > timeout) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

describe('BOCH BOCH', () => {
  it('intro: Play Now opens the full-screen game outside the shell; the close icon goes back to the dashboard', async () => {
    const user = await player('10');
    const page = await openPage(browser());
    await signIn(page, login(user));
    await page.goto('/user/number-game');
    await visible(page.getByRole('heading', { name: 'BOCH BOCH' }));
    await page.getByRole('link', { name: 'Play Now' }).click();
    await page.waitForURL(/\/user\/number-game\/play$/);
    await visible(page.getByRole('button', { name: 'Check Winner (0/2)' }));
    // The user's name on the display; no app sidebar around it.
    expect(await page.getByTestId('game-shop-name').textContent()).toBe(user.fullName);
    expect(await page.getByRole('link', { name: 'Lottery Game' }).count()).toBe(0);

    // Fullscreen from the button, out with the F key; the hint shows for 5 seconds.
    await page.clock.install();
    await page.getByRole('button', { name: 'Enter fullscreen' }).click();
    const hint = page.getByText('Press F or Esc to exit fullscreen');
    expect(await visible(hint)).toBe(true);
    await visible(page.getByRole('button', { name: 'Exit fullscreen' }));
    await page.clock.runFor(4_000);
    expect(await hint.isVisible()).toBe(true);
    await page.clock.runFor(1_500);
    await hint.waitFor({ state: 'hidden' });
    await page.keyboard.press('f');
    await visible(page.getByRole('button', { name: 'Enter fullscreen' }));

    await page.goto('/user/number-game');
    await page.getByRole('link', { name: 'Close' }).click();
    await page.waitForURL(/\/user\/dashboard$/);

    // Another role is sent to its own dashboard.
    const agentPage = await openPage(browser());
    await signIn(agentPage, DEMO.agent);
    await agentPage.goto('/user/number-game/play');
    await agentPage.waitForURL(/\/agent\/dashboard$/);
    await page.context().close();
    await agentPage.context().close();
  });

  it('a full game: range and bet, participants, every draw with its winner popup, settled exactly once', async () => {
    const user = await player('100');
    const page = await openPage(browser());
    const posts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sales-history') posts.push(request);
    });
    await openGame(page, user);
    await visible(page.getByTestId('game-balance').filter({ hasText: '$100.00' }));
    await setup(page, 1, 3, '5');
    // Every number has a participant, so every draw is a win.
    const people = new Map([
      [1, 'Ana Lopez'],
      [2, 'Ben Okafor'],
      [3, 'Carla Diaz'],
    ]);
    for (const [number, name] of people) await choose(page, number, name);
    expect(await page.getByTestId('pool').textContent()).toBe('$15.00');
    expect(await page.getByTestId('prize-row').allTextContents()).toEqual([
      'Jackpot (50.00%)$7.50',
      'Runner-up (25.00%)$3.75',
    ]);

    // Nobody is left to announce.
    await page.getByRole('button', { name: 'Numbers Left' }).click();
    expect(await visible(alertText(page, 'All numbers in the range have been selected!'))).toBe(true);

    const drawn: number[] = [];
    for (const position of [1, 2]) {
      await checkWinner(page).click();
      const popup = page.getByRole('dialog', { name: 'We Have a Winner!' });
      await visible(popup);
      const number = Number(await popup.getByTestId('winner-number').textContent());
      expect(await popup.getByTestId('winner-name').textContent()).toBe(people.get(number));
      expect(drawn).not.toContain(number);
      drawn.push(number);
      await popup.getByRole('button', { name: 'Continue' }).click();
      await popup.waitFor({ state: 'hidden' });
      await visible(page.getByRole('button', { name: `Check Winner (${position}/2)` }));
    }

    await visible(page.getByTestId('game-saved'));
    await visible(page.getByTestId('game-balance').filter({ hasText: '$85.00' }));
    expect(await checkWinner(page).getAttribute('aria-disabled')).toBe('true');
    await pressCheckWinner(page);
    expect(await visible(alertText(page, 'All winners have been drawn!'))).toBe(true);
    expect(await page.getByTestId('commission').textContent()).toBe('$3.75');

    const [game, ...others] = await games(user);
    expect(others).toEqual([]);
    expect(game).toMatchObject({
      startRange: 1,
      endRange: 3,
      betAmount: '5.00',
      totalPrize: '11.25',
      commission: '3.75',
      selectedNumbersCount: 3,
      winningNumbersCount: 2,
    });
    const detail = await apiAs<SaleDetail>(login(user), `/api/sales-history/${game?.id}`);
    expect(detail.gameData.winningNumbers).toEqual(drawn);
    expect(detail.winners.map((w) => [w.position, w.number, w.name, w.prizeAmount])).toEqual([
      [1, drawn[0], people.get(drawn[0] as number), '7.50'],
      [2, drawn[1], people.get(drawn[1] as number), '3.75'],
    ]);
    expect(await balanceOf(user)).toBe('85.00');

    // A reload of the finished game does not send it again.
    await page.reload();
    await visible(page.getByTestId('game-saved'));
    expect(posts).toHaveLength(1);
    expect(await games(user)).toHaveLength(1);

    // Game History shows it once, and its winners are the players drawn, in draw order.
    const history = await openPage(browser());
    await signIn(history, login(user));
    await history.goto('/sales-history');
    await visible(history.getByTestId('sale-row'));
    expect(await history.getByTestId('sale-row').count()).toBe(1);
    expect(await history.getByTestId('total-commission').textContent()).toBe('$3.75');
    await history.getByRole('link', { name: 'View Winners' }).click();
    await visible(history.getByTestId('game-winner').first());
    expect(await history.getByTestId('game-commission').textContent()).toBe('$3.75');
    expect(await history.getByTestId('winner-name').allTextContents()).toEqual(drawn.map((n) => people.get(n)));
    expect(await history.getByTestId('winner-prize').allTextContents()).toEqual(['$7.50', '$3.75']);
    await history.context().close();

    // New Game starts over without charging anything.
    await page.getByRole('button', { name: 'New Game' }).click();
    await visible(page.getByRole('button', { name: 'Check Winner (0/2)' }));
    expect(await page.getByText('Selected Numbers (0)').count()).toBe(1);
    await page.context().close();
  });

  it('a reload mid-game keeps the selection and the draws; Reset Game clears them after confirmation', async () => {
    const user = await player('100', [
      ['First', '40'],
      ['Second', '30'],
      ['Third', '20'],
    ]);
    const page = await openPage(browser());
    await openGame(page, user, 3);
    await page.getByLabel('Bet Amount').fill('2.50');
    await choose(page, 4, 'Dana Reed', '555-0404');
    await choose(page, 9, 'Eli Moss', '555-0909');

    await page.reload();
    await visible(page.getByText('Selected Numbers (2)'));
    expect(await tile(page, 4).getAttribute('aria-pressed')).toBe('true');
    expect(await tile(page, 9).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Bet Amount').inputValue()).toBe('2.50');
    expect(JSON.parse((await stored(page, 'selectedNumbers')) ?? '[]')).toEqual([
      { number: 4, name: 'Dana Reed', phoneNumber: '555-0404' },
      { number: 9, name: 'Eli Moss', phoneNumber: '555-0909' },
    ]);
    expect(await stored(page, 'betAmount')).toBe('2.50');

    // A double click draws once (the first draw waits for the balance check).
    await checkWinner(page).dblclick();
    await visible(page.getByRole('button', { name: 'Check Winner (1/3)' }));
    await page.waitForTimeout(500);
    expect(JSON.parse((await stored(page, 'numberGame')) ?? '{}')).toMatchObject({ drawn: [expect.any(Number)] });
    const first = await page.getByTestId('winner-row').first().textContent();
    await page.reload();
    // The draw survived the reload: same first position, the range and the bet locked.
    await visible(page.getByRole('button', { name: 'Check Winner (1/3)' }));
    expect(await page.getByTestId('winner-row').first().textContent()).toBe(first);
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Reset Game' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset Game' });
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await visible(page.getByRole('button', { name: 'Check Winner (1/3)' }));

    await page.getByRole('button', { name: 'Reset Game' }).click();
    await confirm.getByRole('button', { name: 'Reset Game' }).click();
    await visible(page.getByRole('button', { name: 'Check Winner (0/3)' }));
    expect(await page.getByText('Selected Numbers (0)').count()).toBe(1);
    expect(await tile(page, 4).getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByLabel('Bet Amount').inputValue()).toBe('10');
    expect(await stored(page, 'selectedNumbers')).toBeNull();
    expect(await stored(page, 'betAmount')).toBeNull();
    await page.reload();
    await visible(page.getByText('Selected Numbers (0)'));
    expect(await games(user)).toEqual([]);
    expect(await balanceOf(user)).toBe('100.00');
    await page.context().close();
  });

  it('says why Check Winner cannot draw, in the spec words, and checks the range and bet as typed', async () => {
    const user = await player('5');
    const page = await openPage(browser());
    await openGame(page, user);

    expect(await checkWinner(page).getAttribute('aria-disabled')).toBe('true');
    await pressCheckWinner(page);
    expect(await visible(alertText(page, 'No numbers have been selected yet!'))).toBe(true);

    await page.getByLabel('Range start').fill('0');
    expect(await visible(alertText(page, 'Start must be a whole number from 1 to 99'))).toBe(true);
    await page.getByLabel('Range start').fill('20');
    expect(await visible(alertText(page, 'End must be greater than the start and at most 100'))).toBe(true);
    await page.getByLabel('Range start').fill('1');
    await page.getByLabel('Range end').fill('101');
    expect(await visible(alertText(page, 'End must be greater than the start and at most 100'))).toBe(true);
    await page.getByLabel('Range end').fill('20');
    await page.getByLabel('Bet Amount').fill('0.5');
    expect(await visible(alertText(page, 'Bet amount must be at least 1'))).toBe(true);
    await page.getByLabel('Bet Amount').fill('10');

    // The participant's name and phone are both required.
    await tile(page, 7).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await visible(dialog.getByText('Name is required'))).toBe(true);
    expect(await visible(dialog.getByText('Phone Number is required'))).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await tile(page, 7).getAttribute('aria-pressed')).toBe('false');

    // A pool of 10.00 over a balance of 5.00 cannot start.
    await choose(page, 7, 'Fay Chen');
    await checkWinner(page).click();
    expect(await visible(alertText(page, 'Insufficient balance'))).toBe(true);
    await visible(page.getByRole('button', { name: 'Check Winner (0/2)' }));
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(false);

    // A shown Numbers Left of 1..20 minus 7 would be long; the alert for an empty one was checked above.
    // No prize positions at all (the display-only lookup answered by the test).
    const bare = await openPage(browser());
    await bare.route('**/api/winners/effective', (route) => route.fulfill({ json: { source: 'none', winners: [] } }));
    await signIn(bare, login(user));
    await bare.goto('/user/number-game/play');
    await visible(checkWinner(bare).filter({ hasText: 'Check Winner (0/0)' }));
    await choose(bare, 3, 'Gus Hale');
    await pressCheckWinner(bare);
    expect(await visible(alertText(bare, 'No winner settings configured!'))).toBe(true);
    expect(await games(user)).toEqual([]);
    await page.context().close();
    await bare.context().close();
  });

  it('Numbers Left shows the remaining numbers in order, one every 3 seconds, each with its clip at volume 0.7', async () => {
    const user = await player('100');
    const page = await openPage(browser());
    const clips: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/audio/') && clips.at(-1) !== path) clips.push(path);
    });
    await page.clock.install();
    await openGame(page, user);
    await setup(page, 1, 6, '1');
    await choose(page, 2, 'Hana Ito');
    await choose(page, 5, 'Ivo Kral');
    await page.clock.pauseAt(Date.now() + 60_000);

    await page.getByRole('button', { name: 'Numbers Left' }).click();
    const overlay = page.getByRole('dialog', { name: 'Numbers Left' });
    const shown: string[] = [];
    for (const expected of ['1', '3', '4', '6']) {
      const number = overlay.getByTestId('numbers-left-number');
      await until(
        () => number.textContent(),
        (text) => text === expected,
      );
      shown.push((await number.textContent()) ?? '');
      expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-number]')?.volume)).toBe(
        0.7,
      );
      await page.clock.runFor(3000);
    }
    expect(shown).toEqual(['1', '3', '4', '6']);
    // Closed 3 seconds after the last number.
    await overlay.waitFor({ state: 'hidden', timeout: 5_000 });
    expect(clips).toEqual(['/audio/1.m4a', '/audio/3.m4a', '/audio/4.m4a', '/audio/6.m4a']);

    // The clips are served as audio; a clip that does not exist is a 404, not the app's page.
    const clip = await fetch(`${baseUrl()}/audio/6.m4a`);
    expect(clip.status).toBe(200);
    expect(clip.headers.get('content-type')).toBe('audio/mp4');
    expect((await clip.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await fetch(`${baseUrl()}/audio/101.m4a`)).status).toBe(404);
    await page.context().close();
  });

  it('a game whose save fails is kept, retried with the same key, and recorded once after a reload', async () => {
    const user = await player('50', [['Only prize', '60']]);
    const page = await openPage(browser());
    const keys: string[] = [];
    let online = false;
    let first = true;
    await page.route('**/api/sales-history', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      keys.push(request.headers()['idempotency-key'] ?? '');
      if (online) return route.continue();
      // The first attempt reaches the server but its answer is lost; the rest never get there.
      if (first) {
        first = false;
        await route.fetch();
      }
      return route.abort('internetdisconnected');
    });
    await openGame(page, user, 1);
    await setup(page, 1, 2, '10');
    await choose(page, 1, 'Jin Park');
    await choose(page, 2, 'Kai Lund');
    await checkWinner(page).click();
    await page.getByRole('dialog', { name: 'We Have a Winner!' }).getByRole('button', { name: 'Continue' }).click();

    // Three retries (1 + 2 + 4 seconds), then a plain message with a way to try again.
    expect(await visible(alertText(page, 'This game could not be saved yet.'), 15_000)).toBe(true);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    online = true;
    await page.reload();
    await visible(page.getByTestId('game-saved'));
    expect(new Set(keys).size).toBe(1);
    expect(await games(user)).toHaveLength(1);
    expect(await balanceOf(user)).toBe('30.00');
    await visible(page.getByTestId('game-balance').filter({ hasText: '$30.00' }));
    await page.context().close();
  });

  it('works on a phone and remembers the theme', async () => {
    const user = await player('20');
    const page = await openPage(browser(), PHONE);
    await openGame(page, user);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await choose(page, 12, 'Lea Stone');
    await visible(page.getByText('Selected Numbers (1)'));

    // A chosen number opens with its participant, to correct them or give the number back.
    await tile(page, 12).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Lea Stone');
    await dialog.getByLabel('Name').fill('Lea Stone-Park');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByTestId('selected-row').filter({ hasText: 'Lea Stone-Park' }));
    await tile(page, 12).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await visible(page.getByText('Selected Numbers (0)'));
    expect(await tile(page, 12).getAttribute('aria-pressed')).toBe('false');

    await page.getByRole('radio', { name: 'Green' }).click();
    await attributeBecomes(page.locator('[data-theme]'), 'data-theme', 'green');
    await page.reload();
    await attributeBecomes(page.locator('[data-theme]'), 'data-theme', 'green');
    expect(await page.getByRole('radio', { name: 'Green' }).getAttribute('aria-checked')).toBe('true');
    await page.context().close();
  });
});
