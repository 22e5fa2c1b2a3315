import type { Locator, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { commitmentFingerprint } from '@lot/domain/draw';
import { maskName, maskPhone } from '@lot/domain/mask';
import type { Game, GameSummary } from '@lot/domain/schemas/games';
import type { Sale, SaleDetail } from '@lot/domain/schemas/sales-history';
import { axeViolations, describeViolations } from './axe.ts';
import {
  apiAs,
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  hidden,
  openPage,
  PHONE,
  sessionOf,
  signIn,
  textOf,
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
  parentId?: number,
) {
  const user = await freshUser('user', { fullName: `Game Player ${Date.now() % 100000}`, parentId });
  if (balance !== '0') await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: balance } });
  for (const [index, [name, percent]] of prizes.entries()) {
    await apiAs(login(user), '/api/winners', { body: { name, percent, position: index + 1, isActive: true } });
  }
  return user;
}

const sales = (user: Account) => apiAs<Sale[]>(login(user), `/api/sales-history/user/${user.id}`);
const balanceOf = async (user: Account) => (await apiAs<{ amount: string }>(login(user), '/api/balance')).amount;
/** The player's game in play as the server has it, or null. */
async function currentGame(user: Account): Promise<Game | null> {
  const call = await sessionOf(login(user));
  return call<Game | null>('/api/games/current');
}

const checkWinner = (page: Page) => page.getByRole('button', { name: /^Check Winner/ });
/**
 * Check Winner is aria-disabled when it cannot draw, yet still answers a click with the reason;
 * playwright will not click an aria-disabled element unless forced, a person can.
 */
const pressCheckWinner = (page: Page) => checkWinner(page).click({ force: true });
const grid = (page: Page) => page.getByRole('group', { name: 'Numbers' });
const tile = (page: Page, number: number) => grid(page).getByRole('button', { name: String(number), exact: true });
const alertText = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
/** The operator's Show names toggle (a pressed button while names show in full). */
const showNames = (scope: Page | Locator) => scope.getByRole('button', { name: 'Show names' });

/** Whether the element is wholly inside the window as it is scrolled now. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  return (
    !!box && !!size && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width
  );
}

/** The numbers from..to of the grid that are not wholly in the window as it is scrolled now. */
async function numbersOutOfView(page: Page, from: number, to: number): Promise<number[]> {
  const out: number[] = [];
  for (let number = from; number <= to; number++) if (!(await inViewport(page, tile(page, number)))) out.push(number);
  return out;
}

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
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => tile(page, number).getAttribute('aria-pressed')).toBe('true');
}

const OUTCOME_FIXED =
  'The draw has started, so the outcome is fixed: this game can no longer be voided here. Only your agent or an admin can finish or void it.';
const waitPanel = (page: Page) => page.getByTestId('beacon-wait');

/**
 * Holds the page's draw requests after the first one (the freeze, answered 202) until `release()`,
 * as a beacon round that is late would: the waiting screen stays as long as the test looks at it
 * (the test beacon's round is otherwise there within a second).
 */
async function holdDrawsAfterFreeze(page: Page): Promise<() => void> {
  let seen = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/games/*/draws', async (route: Route) => {
    if (seen++ > 0) await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** Closes every notice on screen (they sit at the foot of the screen, over what is there). */
async function dismissNotices(page: Page) {
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

/** Every request of the page to the API path's method, as they leave. */
function requestsTo(page: Page, method: string, path: RegExp): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && path.test(new URL(request.url()).pathname)) seen.push(request);
  });
  return seen;
}

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
    await page.getByRole('link', { name: 'Close', exact: true }).click();
    await page.waitForURL(/\/user\/dashboard$/);

    // Another role is sent to its own dashboard.
    const agentPage = await openPage(browser());
    await signIn(agentPage, DEMO.agent);
    await agentPage.goto('/user/number-game/play');
    await agentPage.waitForURL(/\/agent\/dashboard$/);
    await page.context().close();
    await agentPage.context().close();
  });

  it('a full game run by the server: participants, the wait for the beacon round, every draw with its winner popup, settled once, and its public proof', async () => {
    const user = await player('100');
    // The size of a shop's laptop screen: Check Winner must be in view without scrolling.
    const page = await openPage(browser(), { width: 1280, height: 900 });
    const legacy = requestsTo(page, 'POST', /^\/api\/sales-history$/);
    const draws = requestsTo(page, 'POST', /^\/api\/games\/\d+\/draws$/);
    // Loading the screen without a game is no failure: no 4xx or 5xx answer (and no console error for one).
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await openGame(page, user);
    expect(failed).toEqual([]);
    await visible(page.getByTestId('game-balance').filter({ hasText: '$100.00' }));
    await setup(page, 1, 3, '5');
    // No game before the first participant: nothing on the server yet.
    expect(await currentGame(user)).toBeNull();
    // Every number has a participant, so every draw is a win.
    const people = new Map([
      [1, 'Ana Lopez'],
      [2, 'Ben Okafor'],
      [3, 'Carla Diaz'],
    ]);
    for (const [number, name] of people) await choose(page, number, name);
    expect(failed).toEqual([]);
    expect(await inViewport(page, checkWinner(page))).toBe(true);

    // The screen faces the customers: names and phones are masked as on the public pages until the
    // operator presses Show names, and masked again with a second press.
    const selectedNames = () => page.getByTestId('selected-name').allTextContents();
    expect(await selectedNames()).toEqual(['A*** L***', 'B*** O***', 'C*** D***']);
    expect(await page.getByTestId('selected-row').first().textContent()).toBe('1A*** L*******1001');
    expect(await page.getByText('Ana Lopez').count()).toBe(0);
    expect(await showNames(page).getAttribute('aria-pressed')).toBe('false');
    await showNames(page).click();
    expect(await selectedNames()).toEqual([...people.values()]);
    expect(await page.getByTestId('selected-row').first().textContent()).toBe('1Ana Lopez555-1001');
    await showNames(page).press('Enter');
    expect(await showNames(page).getAttribute('aria-pressed')).toBe('false');
    expect(await selectedNames()).toEqual(['A*** L***', 'B*** O***', 'C*** D***']);
    // The balance covers the pool: no warning.
    expect(await page.getByTestId('pool-over-balance').count()).toBe(0);

    // The first participant opened the game: its code and commitment fingerprint are on screen.
    const opened = await currentGame(user);
    if (!opened) throw new Error('no game opened');
    expect(opened).toMatchObject({ status: 'open', startRange: 1, endRange: 3, betAmount: '5.00', pool: '15.00' });
    expect(opened.entries.map((e) => [e.number, e.name])).toEqual([...people.entries()]);
    expect(await page.getByTestId('game-code').textContent()).toBe(opened.code);
    expect(await page.getByTestId('game-fingerprint').textContent()).toBe(commitmentFingerprint(opened.commitment));
    expect(await visible(page.getByTestId('setup-locked'))).toBe(true);
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(true);
    expect(await page.getByTestId('pool').textContent()).toBe('$15.00');
    expect(await page.getByTestId('prize-row').allTextContents()).toEqual([
      'Jackpot (50.00%)$7.50',
      'Runner-up (25.00%)$3.75',
    ]);

    // Nobody is left to announce.
    await page.getByRole('button', { name: 'Numbers Left' }).click();
    expect(await visible(alertText(page, 'All numbers in the range have been selected!'))).toBe(true);

    // The public randomness the draws will use: its round is named when the draw starts.
    expect(await page.getByTestId('game-protocol').textContent()).toBe(
      'Public randomness: drand, its round named when the draw starts',
    );
    expect(await page.getByTestId('game-protocol').getAttribute('data-protocol')).toBe('LOT-DRAW-2');

    // The first press freezes the game and holds the pool; the draw waits for the beacon round.
    const release = await holdDrawsAfterFreeze(page);
    await checkWinner(page).click();
    await visible(waitPanel(page));
    const frozen = await currentGame(user);
    const round = frozen?.beacon?.round;
    if (!frozen || !round) throw new Error('the game was not frozen with a round');
    expect(frozen).toMatchObject({ status: 'drawing', draws: [] });
    expect(await waitPanel(page).getByRole('status').textContent()).toBe(
      `Waiting for public randomness (round ${round})…`,
    );
    expect(await page.getByTestId('game-protocol').textContent()).toBe(`Public randomness: drand round ${round}`);
    expect(await checkWinner(page).getAttribute('aria-disabled')).toBe('true');
    await visible(page.getByTestId('game-balance').filter({ hasText: '$85.00' }));
    // The outcome is fixed now: no Reset Game for the shop, and it says who can end the game.
    expect(await page.getByTestId('outcome-fixed').textContent()).toBe(OUTCOME_FIXED);
    expect(await page.getByRole('button', { name: 'Reset Game' }).count()).toBe(0);
    // The countdown reaches the round's time, and the screen keeps waiting while nothing answers.
    await expect.poll(() => waitPanel(page).getAttribute('data-state'), { timeout: 5_000 }).toBe('due');
    await page.screenshot({ path: 'test-results/screenshots/play-waiting-due.png' });
    // The waiting screen passes axe at both widths.
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const screen = `play screen waiting for its round at ${size.width} px`;
      expect(describeViolations(screen, await axeViolations(page))).toBe(`${screen}: no serious or critical violation`);
    }
    await page.setViewportSize(DESKTOP);
    release();

    const drawn: number[] = [];
    for (const position of [1, 2]) {
      if (position > 1) await checkWinner(page).click();
      const popup = page.getByRole('dialog', { name: 'We Have a Winner!' });
      await visible(popup);
      const number = Number(await popup.getByTestId('winner-number').textContent());
      const name = people.get(number) ?? '';
      // Masked at first; once the operator shows names they stay shown for the next popup.
      if (position === 1) {
        expect(await popup.getByTestId('winner-name').textContent()).toBe(maskName(name));
        expect(await popup.getByTestId('winner-phone').textContent()).toBe(maskPhone(`555-${1000 + number}`));
        await showNames(popup).click();
      }
      expect(await popup.getByTestId('winner-name').textContent()).toBe(name);
      expect(await popup.getByTestId('winner-phone').textContent()).toBe(`555-${1000 + number}`);
      expect(drawn).not.toContain(number);
      drawn.push(number);
      await popup.getByRole('button', { name: 'Continue' }).click();
      await popup.waitFor({ state: 'hidden' });
      await visible(page.getByRole('button', { name: `Check Winner (${position}/2)` }));
      if (position === 1) await hidden(waitPanel(page));
    }
    // Position 1 asked until its round came (the freeze, then again), then position 2 once.
    const positions = draws.map((r) => (r.postDataJSON() as { position: number }).position);
    expect(positions.filter((p) => p === 1).length).toBeGreaterThanOrEqual(2);
    expect(positions.slice(positions.indexOf(2))).toEqual([2]);

    await visible(page.getByTestId('game-saved'));
    expect(await page.getByTestId('game-saved').textContent()).toContain('Game saved to Game History');
    await visible(page.getByTestId('game-balance').filter({ hasText: '$85.00' }));
    expect(await checkWinner(page).getAttribute('aria-disabled')).toBe('true');
    // Notices still up ('Game saved…', the Numbers Left one) sit over the button at the foot of
    // the screen: dismissed first, as the operator would.
    await dismissNotices(page);
    await pressCheckWinner(page);
    expect(await visible(alertText(page, 'All winners have been drawn!'))).toBe(true);
    expect(await page.getByTestId('commission').textContent()).toBe('$3.75');
    expect(legacy).toHaveLength(0);

    // The server recorded it once, with the draws it made, and the game is settled.
    const game = await apiAs<Game>(login(user), `/api/games/${opened.id}`);
    expect(game).toMatchObject({ status: 'settled', commission: '3.75', totalPrize: '11.25' });
    expect(game.draws.map((d) => d.number)).toEqual(drawn);
    const [sale, ...others] = await sales(user);
    expect(others).toEqual([]);
    expect(sale).toMatchObject({ id: game.saleId, startRange: 1, endRange: 3, betAmount: '5.00', commission: '3.75' });
    const detail = await apiAs<SaleDetail>(login(user), `/api/sales-history/${game.saleId}`);
    expect(detail.winners.map((w) => [w.position, w.number, w.name, w.prizeAmount])).toEqual([
      [1, drawn[0], people.get(drawn[0] as number), '7.50'],
      [2, drawn[1], people.get(drawn[1] as number), '3.75'],
    ]);
    expect(await balanceOf(user)).toBe('85.00');

    // A reload shows a fresh board (the settled game is in Game History), and records nothing again.
    await page.reload();
    await visible(page.getByRole('button', { name: 'Check Winner (0/2)' }));
    expect(await sales(user)).toHaveLength(1);
    expect(await page.getByText('Selected Numbers (0)').count()).toBe(1);
    await page.context().close();

    // The transactions list names the game and links to its proof.
    const ledger = await openPage(browser());
    await signIn(ledger, login(user));
    await ledger.goto('/transactions');
    const gameLink = ledger.getByTestId('transaction-game').first();
    await visible(gameLink);
    expect(await gameLink.textContent()).toBe(`Game #${game.number} · Game played with 3 numbers, 2 winners`);
    expect(await gameLink.getAttribute('href')).toBe(`/verify/${game.code}`);
    await ledger.context().close();

    // The public proof, without signing in: the game with its draws, the entries masked. (Its
    // verdict, which needs the test beacon's chain pinned, and Find my entry are the verify page's tests.)
    const proof = await openPage(browser());
    await proof.goto(`/verify/${game.code}`);
    await expect.poll(() => textOf(proof.getByTestId('verify-status'))).toBe('Settled');
    expect(await proof.getByTestId('verify-code').textContent()).toBe(game.code);
    expect(await proof.getByTestId('verify-draw').count()).toBe(2);
    expect(await proof.getByText('Ana Lopez').count()).toBe(0);
    expect(await proof.getByTestId('verify-entry').first().textContent()).toContain('A*** L***');
    await proof.context().close();
  });

  it('on the settled screen: Verify this game opens the proof, New Game clears the board', async () => {
    const user = await player('20', [['Only prize', '60']]);
    const page = await openPage(browser());
    await openGame(page, user, 1);
    await setup(page, 1, 2, '1');
    await choose(page, 1, 'Mia Ross');
    await choose(page, 2, 'Noa Berg');
    await checkWinner(page).click();
    await page.getByRole('dialog', { name: 'We Have a Winner!' }).getByRole('button', { name: 'Continue' }).click();
    await visible(page.getByTestId('game-saved'));
    const code = await page.getByTestId('game-code').textContent();
    const verify = page.getByRole('link', { name: 'Verify this game' });
    expect(await verify.getAttribute('href')).toBe(`/verify/${code}`);

    await page.getByRole('button', { name: 'New Game' }).click();
    await visible(page.getByRole('button', { name: 'Check Winner (0/1)' }));
    expect(await page.getByTestId('game-code').count()).toBe(0);
    expect(await page.getByText('Selected Numbers (0)').count()).toBe(1);
    expect(await page.getByLabel('Range end').inputValue()).toBe('2');
    expect(await page.getByLabel('Bet Amount').inputValue()).toBe('10');
    await page.context().close();
  });

  it('a reload or another device carries on with the same game, also while it waits for its round; after the freeze only the agent can void it, and sees it', async () => {
    const supers = await apiAs<{ userId: number }>(DEMO.superagent, '/api/balance');
    const agent = await freshUser('agent', { parentId: supers.userId, fullName: `Void Agent ${Date.now() % 100000}` });
    const user = await player(
      '100',
      [
        ['First', '40'],
        ['Second', '30'],
        ['Third', '20'],
      ],
      agent.id,
    );
    const page = await openPage(browser());
    const draws = requestsTo(page, 'POST', /^\/api\/games\/\d+\/draws$/);
    await openGame(page, user, 3);
    await page.getByLabel('Bet Amount').fill('2.50');
    await choose(page, 4, 'Dana Reed', '555-0404');
    await choose(page, 9, 'Eli Moss', '555-0909');
    const code = await page.getByTestId('game-code').textContent();

    await page.reload();
    await visible(page.getByText('Selected Numbers (2)'));
    expect(await tile(page, 4).getAttribute('aria-pressed')).toBe('true');
    expect(await tile(page, 9).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Bet Amount').inputValue()).toBe('2.50');
    expect(await page.getByTestId('game-code').textContent()).toBe(code);
    // Nothing of the game is kept in the browser.
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((key) => !['token', 'user'].includes(key))),
    ).toEqual([]);

    // Another device signed in as the same shop shows the same game.
    const other = await openPage(browser(), PHONE);
    await signIn(other, login(user));
    await other.goto('/user/number-game/play');
    await visible(other.getByText('Selected Numbers (2)'));
    expect(await other.getByTestId('game-code').textContent()).toBe(code);

    // A double click starts the draw once: the game freezes and waits for its round. Counted when
    // the freeze answers: from then on the waiting screen asks for position 1 again by itself, and
    // on a busy machine it may already have done so by the time the checks below are made.
    const release = await holdDrawsAfterFreeze(page);
    const freezeAnswered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && /^\/api\/games\/\d+\/draws$/.test(new URL(response.url()).pathname),
    );
    await checkWinner(page).dblclick();
    await freezeAnswered;
    const sentByTheClicks = draws.map((r) => (r.postDataJSON() as { position: number }).position);
    await visible(waitPanel(page));
    const round = (await currentGame(user))?.beacon?.round;
    expect(round).toBeGreaterThan(0);
    expect(sentByTheClicks).toEqual([1]);
    expect(new Set(draws.map((r) => (r.postDataJSON() as { position: number }).position))).toEqual(new Set([1]));
    expect(await balanceOf(user)).toBe('95.00');
    // A reload while it waits loses nothing: the same round, still waiting, the draw button off.
    await page.reload();
    await visible(waitPanel(page));
    expect(await waitPanel(page).getAttribute('data-round')).toBe(String(round));
    expect(await checkWinner(page).getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(true);

    // The other device still shows the game as it was before the freeze: its Reset is refused by
    // the server, which says why, and the device then shows the frozen game.
    await other.getByRole('button', { name: 'Reset Game' }).click();
    const otherConfirm = other.getByRole('dialog', { name: 'Reset Game' });
    await otherConfirm.getByRole('button', { name: 'Reset Game' }).click();
    expect(
      await visible(
        otherConfirm.getByText(
          'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it',
        ),
      ),
    ).toBe(true);
    // Behind the dialog the screen shows the game frozen (and draws it once its round is there).
    await visible(other.getByTestId('outcome-fixed'));
    expect(await currentGame(user)).toMatchObject({ status: 'drawing' });
    await other.context().close();

    // Once the round is there, the waiting screen draws position 1 by itself (the same draw,
    // whichever device asked first).
    release();
    await visible(page.getByRole('button', { name: 'Check Winner (1/3)' }));
    const popup = page.getByRole('dialog', { name: 'We Have a Winner!' });
    if (await popup.isVisible()) await popup.getByRole('button', { name: 'Continue' }).click();
    expect(new Set(draws.map((r) => (r.postDataJSON() as { position: number }).position))).toEqual(new Set([1]));
    expect((await currentGame(user))?.draws).toHaveLength(1);
    expect(await balanceOf(user)).toBe('95.00');
    const first = await page.getByTestId('winner-row').first().textContent();
    await page.reload();
    // The draw survived the reload: same first position, the range and the bet locked.
    await visible(page.getByRole('button', { name: 'Check Winner (1/3)' }));
    expect(await page.getByTestId('winner-row').first().textContent()).toBe(first);
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(true);
    // No Reset Game once frozen: the screen says who can end the game.
    expect(await page.getByRole('button', { name: 'Reset Game' }).count()).toBe(0);
    expect(await page.getByTestId('outcome-fixed').textContent()).toBe(OUTCOME_FIXED);
    const screen = 'play screen of a frozen game';
    expect(describeViolations(screen, await axeViolations(page))).toBe(`${screen}: no serious or critical violation`);

    // The agent voids it (the pool goes back to the shop); the shop's next press shows it voided.
    const frozen = await currentGame(user);
    if (!frozen) throw new Error('no game in play');
    await apiAs(login(agent), `/api/games/${frozen.id}/void`, {
      body: { reason: 'Customer dispute over the draw', afterWinner: true },
    });
    await checkWinner(page).click();
    const ended = page.getByTestId('game-ended');
    await visible(ended);
    expect(await ended.textContent()).toContain(`This game was voided by Agent ${agent.fullName}.`);
    expect(await ended.textContent()).toContain('Reason: Customer dispute over the draw');
    expect(await currentGame(user)).toBeNull();
    // The held pool is back.
    expect(await balanceOf(user)).toBe('100.00');
    expect(await sales(user)).toEqual([]);
    const [voided] = await apiAs<GameSummary[]>(login(user), '/api/games?status=voided');
    expect(voided).toMatchObject({
      code,
      status: 'voided',
      voidReason: 'Customer dispute over the draw',
      drawsCount: 1,
    });
    await page.getByRole('button', { name: 'New Game' }).click();
    await visible(page.getByRole('button', { name: 'Check Winner (0/3)' }));
    const confirm = page.getByRole('dialog', { name: 'Reset Game' });

    // Before any draw, Reset is a plain confirmation and the game is only discarded.
    await choose(page, 5, 'Fay Chen');
    await page.getByRole('button', { name: 'Reset Game' }).click();
    expect(await confirm.getByLabel('Reason').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Reset Game' }).click();
    await visible(page.getByText('Selected Numbers (0)'));
    expect(await currentGame(user)).toBeNull();
    expect(await apiAs<GameSummary[]>(login(user), '/api/games?status=voided')).toHaveLength(1);
    await page.context().close();

    // The agent: the count on the dashboard, the game on the sales-history screen's voided list.
    const agentPage = await openPage(browser());
    await signIn(agentPage, login(agent));
    const count = agentPage.getByTestId('stat-voided-games').locator('p').nth(1);
    await expect.poll(() => textOf(count)).toBe('1');
    await agentPage.getByRole('link', { name: 'View voided games' }).click();
    await agentPage.waitForURL(/\/agent\/sales-history\?view=voided$/);
    const row = agentPage.getByTestId('voided-row');
    await visible(row);
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute('data-code')).toBe(code);
    expect(await row.locator('[data-column="user"]').textContent()).toBe(user.fullName);
    expect(await row.getByTestId('voided-reason').textContent()).toBe('Customer dispute over the draw');
    expect(await row.getByTestId('voided-drawn').textContent()).toBe('1 of 3');
    expect(await row.locator('[data-column="pool"]').textContent()).toContain('$5.00');
    await row.getByRole('link', { name: /Verify/ }).click();
    await agentPage.waitForURL(new RegExp(`/verify/${code}$`));
    await expect.poll(() => textOf(agentPage.getByTestId('verify-status'))).toBe('Voided');
    await agentPage.context().close();
  });

  it('says why Check Winner cannot draw, in the documented words, and checks the range and bet as typed', async () => {
    const user = await player('5');
    // A shop's laptop screen: the board must keep every number in view while entries are taken.
    const page = await openPage(browser(), { width: 1280, height: 800 });
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
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await visible(dialog.getByText('Name is required'))).toBe(true);
    expect(await visible(dialog.getByText('Phone Number is required'))).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await tile(page, 7).getAttribute('aria-pressed')).toBe('false');

    // A pool of 10.00 over a balance of 5.00: the draw is refused and nothing is drawn.
    expect(await numbersOutOfView(page, 1, 20)).toEqual([]);
    await choose(page, 7, 'Fay Chen');
    // With the game's identity, the setup's lock and the pool warning on screen, 1 to 20 are all
    // still in view, the warning too, and nothing scrolls.
    await visible(page.getByTestId('pool-over-balance'));
    expect(await numbersOutOfView(page, 1, 20)).toEqual([]);
    expect(await inViewport(page, page.getByTestId('pool-over-balance'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);
    await checkWinner(page).click();
    expect(await visible(alertText(page, 'Insufficient balance'))).toBe(true);
    await visible(page.getByRole('button', { name: 'Check Winner (0/2)' }));
    expect((await currentGame(user))?.draws).toEqual([]);
    expect(await balanceOf(user)).toBe('5.00');
    await page.context().close();

    // No prize positions at all: the server refuses to open the game, and what was typed stays.
    const bare = await openPage(browser());
    await bare.route('**/api/winners/effective', (route) => route.fulfill({ json: { source: 'none', winners: [] } }));
    await bare.route('**/api/games', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 422,
            json: { message: 'No winner settings configured!', code: 'NO_WINNER_SETTINGS' },
          })
        : route.continue(),
    );
    const fresh = await player('50', []);
    await signIn(bare, login(fresh));
    await bare.goto('/user/number-game/play');
    await visible(checkWinner(bare).filter({ hasText: 'Check Winner (0/0)' }));
    expect(await visible(bare.getByText('No winner settings configured!'))).toBe(true);
    await tile(bare, 3).click();
    const bareDialog = bare.getByRole('dialog', { name: 'Enter Participant Details' });
    await bareDialog.getByLabel('Name').fill('Gus Hale');
    await bareDialog.getByLabel('Phone Number').fill('555-0303');
    await bareDialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await visible(alertText(bare, 'No winner settings configured!'))).toBe(true);
    expect(await bareDialog.getByLabel('Name').inputValue()).toBe('Gus Hale');
    await bareDialog.getByRole('button', { name: 'Cancel' }).click();
    await pressCheckWinner(bare);
    expect(await visible(alertText(bare, 'No numbers have been selected yet!'))).toBe(true);
    await bare.context().close();

    // Active settings over 100%: said before a game starts.
    const over = await openPage(browser());
    const greedy = await player('50', [
      ['Big', '60'],
      ['Bigger', '50'],
    ]);
    await openGame(over, greedy);
    expect(await visible(alertText(over, 'more than 100% (110.00%)'))).toBe(true);
    await over.context().close();
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
      await expect.poll(() => number.textContent()).toBe(expected);
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

  it('a lost answer: a failed participant save keeps what was typed; a draw is asked again for the same position only', async () => {
    const user = await player('50', [['Only prize', '60']]);
    const page = await openPage(browser());
    await openGame(page, user, 1);
    await setup(page, 1, 2, '10');
    await choose(page, 1, 'Jin Park');

    // The list reaches nobody: the dialog says so and keeps the name and phone for another try.
    await page.route('**/api/games/*/entries', (route) => route.abort('internetdisconnected'));
    await tile(page, 2).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByLabel('Name').fill('Kai Lund');
    await dialog.getByLabel('Phone Number').fill('555-2222');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await visible(dialog.getByTestId('participant-error'))).toBe(true);
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Kai Lund');
    expect(await page.getByText('Selected Numbers (1)').count()).toBe(1);
    await page.unroute('**/api/games/*/entries');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await hidden(dialog);
    await expect.poll(() => tile(page, 2).getAttribute('aria-pressed')).toBe('true');

    // The first draw request (the freeze) reaches the server but its answer is lost: the screen
    // asks for position 1 again, waits for the round, and the server draws it once.
    const positions: number[] = [];
    let lose = true;
    await page.route('**/api/games/*/draws', async (route) => {
      positions.push((route.request().postDataJSON() as { position: number }).position);
      if (!lose) return route.continue();
      lose = false;
      await route.fetch();
      return route.abort('internetdisconnected');
    });
    await checkWinner(page).click();
    await page.getByRole('dialog', { name: 'We Have a Winner!' }).getByRole('button', { name: 'Continue' }).click();
    await visible(page.getByTestId('game-saved'));
    expect(positions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(positions)).toEqual(new Set([1]));
    const [sale, ...others] = await sales(user);
    expect(others).toEqual([]);
    expect(sale?.commission).toBe('8.00');
    expect(await balanceOf(user)).toBe('30.00');
    await visible(page.getByTestId('game-balance').filter({ hasText: '$30.00' }));
    await page.context().close();
  });

  it('offers the names and phones this shop used before; choosing one fills both fields', async () => {
    const user = await player('20');
    // An earlier game of this shop, ended before its draw: its participant is remembered.
    const call = await sessionOf(login(user));
    const earlier = await call<Game>('/api/games', { body: { startRange: 1, endRange: 20, betAmount: '1' } });
    await call(`/api/games/${earlier.id}/entries`, {
      method: 'PUT',
      body: { entries: [{ number: 4, name: 'Zora Quinn', phoneNumber: '+63 917 555 0199' }] },
    });
    await call(`/api/games/${earlier.id}/void`, { body: { reason: 'Reset before the first draw' } });

    const page = await openPage(browser());
    await openGame(page, user);
    await tile(page, 9).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByLabel('Name').fill('zo');
    const suggestion = dialog.getByTestId('participant-suggestions').getByRole('button', { name: /Zora Quinn/ });
    await visible(suggestion);
    await suggestion.click();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Zora Quinn');
    expect(await dialog.getByLabel('Phone Number').inputValue()).toBe('+63 917 555 0199');
    // Once chosen, nothing else to offer; a phone search finds the same person by its digits.
    await hidden(dialog.getByTestId('participant-suggestions'));
    await dialog.getByLabel('Name').fill('');
    await dialog.getByLabel('Phone Number').fill('5550199');
    await visible(dialog.getByTestId('participant-suggestions').getByRole('button', { name: /Zora Quinn/ }));
    // A phone of an implausible form is refused with a clear message, and nothing is sent.
    await dialog.getByLabel('Name').fill('Short Phone');
    await dialog.getByLabel('Phone Number').fill('12-34');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(dialog.getByText('Phone Number must have 7 to 15 digits (digits, spaces, + and - only)'));
    expect(await currentGame(user)).toBeNull();
    await page.context().close();
  });

  it('works on a phone and remembers the theme', async () => {
    const user = await player('20');
    const page = await openPage(browser(), PHONE);
    await openGame(page, user);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await choose(page, 12, 'Lea Stone');
    await visible(page.getByText('Selected Numbers (1)'));
    expect(await page.getByTestId('selected-name').textContent()).toBe('L*** S***');
    await showNames(page).click();

    // A chosen number opens with its participant, to correct them or give the number back.
    await tile(page, 12).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Lea Stone');
    await dialog.getByLabel('Name').fill('Lea Stone-Park');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(page.getByTestId('selected-row').filter({ hasText: 'Lea Stone-Park' }));
    expect((await currentGame(user))?.entries.map((e) => e.name)).toEqual(['Lea Stone-Park']);
    const firstCode = await page.getByTestId('game-code').textContent();
    await tile(page, 12).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await visible(page.getByText('Selected Numbers (0)'));
    expect(await tile(page, 12).getAttribute('aria-pressed')).toBe('false');

    // With nobody left the bet is open again; changing it discards the empty game, and the next
    // participant opens a new one with the new bet.
    expect(await page.getByLabel('Bet Amount').isDisabled()).toBe(false);
    await page.getByLabel('Bet Amount').fill('15');
    await expect.poll(() => currentGame(user)).toBeNull();
    await choose(page, 12, 'Lea Stone');
    const reopened = await currentGame(user);
    expect(reopened?.betAmount).toBe('15.00');
    expect(await page.getByTestId('game-code').textContent()).toBe(reopened?.code);
    expect(reopened?.code).not.toBe(firstCode);
    expect(await page.getByTestId('pool-over-balance').count()).toBe(0);

    // A second $15 bet would make a pool the $20 balance does not cover: said before the customer
    // pays, in the dialog, and beside the entries once taken (the draw would be refused).
    await tile(page, 13).click();
    expect(await dialog.getByTestId('participant-pool-warning').textContent()).toBe(
      'With this participant the pool is $30.00, more than your balance of $20.00: the draw will be refused.',
    );
    await dialog.getByLabel('Name').fill('Max Roe');
    await dialog.getByLabel('Phone Number').fill('555-1013');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await visible(page.getByTestId('pool-over-balance'))).toBe(true);
    expect(await page.getByTestId('pool-over-balance').textContent()).toBe(
      'The pool of $30.00 is more than your balance of $20.00: the draw will be refused. Take no more bets until the balance is topped up.',
    );
    // Where the bets are taken: the warning sits right above the numbers, in view at the top of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await inViewport(page, page.getByTestId('pool-over-balance'))).toBe(true);
    const warningBox = await page.getByTestId('pool-over-balance').boundingBox();
    const firstTile = await tile(page, 1).boundingBox();
    expect((firstTile?.y ?? 0) - ((warningBox?.y ?? 0) + (warningBox?.height ?? 0))).toBeLessThanOrEqual(24);
    expect(
      (warningBox?.y ?? 0) + (warningBox?.height ?? 0) <
        ((await page.getByTestId('play-actions').boundingBox())?.y ?? 0),
    ).toBe(true);
    // Check Winner stays within reach on a phone: in view at the top of the page and at its foot.
    expect(await inViewport(page, checkWinner(page))).toBe(true);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await inViewport(page, checkWinner(page))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.getByRole('radio', { name: 'Green' }).click();
    await expect.poll(() => page.locator('[data-theme]').getAttribute('data-theme')).toBe('green');
    await page.reload();
    await expect.poll(() => page.locator('[data-theme]').getAttribute('data-theme')).toBe('green');
    expect(await page.getByRole('radio', { name: 'Green' }).getAttribute('aria-checked')).toBe('true');
    await page.context().close();
  });
});
