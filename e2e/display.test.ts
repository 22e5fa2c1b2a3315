import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { commitmentFingerprint } from '@lot/domain/draw';
import { exitOf, freePort, startServer } from '../packages/server/src/test/server-process.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { maskName } from '@lot/domain/mask';
import type { DrawResult, DrawWaiting, Game, GameProof, GameSummary } from '@lot/domain/schemas/games';
import {
  apiAs,
  baseUrl,
  decodeQr,
  DEMO,
  drawPosition,
  freshUser,
  login,
  PHONE,
  publicUrl,
  screenshotOnFailure,
  sessionOf,
  signIn,
  testBeacon,
  textOf,
  useBrowser,
  visible,
  hidden,
  type GameEntry,
} from './support.ts';

const browser = useBrowser();
const ROOM = { width: 1920, height: 1080 };
const THEMES = ['white', 'green', 'blue', 'orange'] as const;
const SCREENSHOTS = 'test-results/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });
const SERVER_RANDOMNESS_ONLY = 'Server randomness only: whoever holds the seed could know the outcome';

/**
 * The display's address pinning the test beacon's chain (key, genesis and period from the beacon
 * itself, as a verifier would take them), so its end-of-game check can verify LOT-DRAW-2 games.
 */
async function pinned(path: string): Promise<string> {
  const beacon = testBeacon();
  const info = (await (await fetch(`${beacon.url}/info`)).json()) as { genesis_time: number; period: number };
  const pins = new URLSearchParams({
    chain: beacon.chainHash,
    publicKey: beacon.publicKey,
    genesisTime: String(info.genesis_time),
    period: String(info.period),
  });
  return `${path}${path.includes('?') ? '&' : '?'}${pins}`;
}

/** A player of this file with 1000.00 and three prize positions (50, 25 and 10 %). */
async function gamePlayer() {
  const user = await freshUser('user', { fullName: `Display Shop ${Date.now() % 100000}` });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: '1000' } });
  for (const [index, [name, percent]] of [
    ['Jackpot', '50'],
    ['Second', '25'],
    ['Third', '10'],
  ].entries()) {
    await apiAs(login(user), '/api/winners', { body: { name, percent, position: index + 1, isActive: true } });
  }
  return user;
}

const ENTRIES: GameEntry[] = [
  { number: 2, name: 'Marguerite Okonkwo', phoneNumber: '555-0102' },
  { number: 5, name: 'Bartholomew Quist', phoneNumber: '555-0105' },
  { number: 7, name: 'Ingrid Vasquez', phoneNumber: '555-0107' },
  { number: 11, name: 'Oluwaseun Park', phoneNumber: '555-0111' },
  { number: 14, name: 'Theodora Lindqvist', phoneNumber: '555-0114' },
];

/** Opens a game with ENTRIES on 1–20 at 10.00 through the API; draws `draws` positions (each once its round is there). */
async function openGame(account: { username: string; password: string }, draws = 0, entries = ENTRIES) {
  const call = await sessionOf(account);
  const opened = await call<Game>('/api/games', { body: { startRange: 1, endRange: 20, betAmount: '10.00' } });
  let game = await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries } });
  for (let position = 1; position <= draws; position++) game = (await drawPosition(call, game.id, position)).game;
  return { game, call };
}

/** Freezes the game (its first draw request) and asks nothing more: it waits for its round as long as nobody asks. */
async function freeze(call: Awaited<ReturnType<typeof sessionOf>>, game: Game): Promise<DrawWaiting> {
  const answer = await call<DrawWaiting | DrawResult>(`/api/games/${game.id}/draws`, { body: { position: 1 } });
  if (!('waitingForRound' in answer)) throw new Error('the freeze drew at once: not a LOT-DRAW-2 game');
  return answer;
}

async function displayPage(
  url: string,
  options: {
    viewport?: { width: number; height: number };
    base?: string;
    reducedMotion?: boolean;
    /** The page's timers on the test's clock (Playwright's), which runs them at once when told. */
    clock?: boolean;
  } = {},
): Promise<Page> {
  const context = await browser().newContext({
    viewport: options.viewport ?? ROOM,
    baseURL: options.base ?? baseUrl(),
    reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
  });
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  screenshotOnFailure(page);
  await page.goto(url);
  return page;
}

const connection = (page: Page) => page.getByTestId('display-connection');

/** Waits (checking every frame) until the display shows `number` as the newest draw; answers when. */
async function drawShown(page: Page, number: number, timeout = 5_000): Promise<number> {
  await page.waitForFunction(
    (wanted) =>
      document.querySelector(`[data-testid="display-spotlight"][data-number="${wanted}"]`) !== null ||
      document.querySelector(`[data-testid="display-draw"][data-number="${wanted}"]`) !== null,
    number,
    { polling: 'raf', timeout },
  );
  return performance.now();
}

/** Reads the QR codes inside an element, from a screenshot of the page as a camera would see it. */
async function qrIn(page: Page, locator: Locator): Promise<string[]> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the QR code is not on screen');
  const margin = 16;
  return decodeQr(await page.screenshot(), [
    {
      left: Math.max(0, Math.floor(box.x - margin)),
      top: Math.max(0, Math.floor(box.y - margin)),
      width: Math.ceil(box.width + 2 * margin),
      height: Math.ceil(box.height + 2 * margin),
    },
  ]);
}

describe('customer display', () => {
  it('shows the wait for the beacon round, each draw made through the API within a second, then Verified with a QR code of the proof', async () => {
    const user = await gamePlayer();
    const { game, call } = await openGame(login(user));
    const page = await displayPage(await pinned(`/display/${game.code}`));
    await expect.poll(() => connection(page).getAttribute('data-connection')).toBe('live');
    await expect.poll(() => textOf(page.getByTestId('display-shop'))).toBe(user.fullName);
    await expect
      .poll(() => page.locator('[data-testid="display-number"][data-state="sold"]').count())
      .toBe(ENTRIES.length);
    expect(await page.getByTestId('display-pool').textContent()).toBe('$50.00');
    expect(await page.getByTestId('display-fingerprint').textContent()).toBe(commitmentFingerprint(game.commitment));
    // The prize each position pays for the pool of 50.00.
    expect(await page.getByTestId('display-prize').allTextContents()).toEqual([
      expect.stringMatching(/Jackpot · 50%Next draw\$25\.00$/),
      expect.stringMatching(/Second · 25%Not drawn yet\$12\.50$/),
      expect.stringMatching(/Third · 10%Not drawn yet\$5\.00$/),
    ]);

    // The public randomness is named before the draw: its round once the game is frozen.
    expect(await page.getByTestId('display-protocol').textContent()).toBe(
      'Public randomness: drand, its round named when the draw starts',
    );
    const waiting = await freeze(call, game);
    const wait = page.getByTestId('beacon-wait');
    await visible(wait, 2_000);
    expect(await wait.getAttribute('data-round')).toBe(String(waiting.waitingForRound));
    expect(await wait.getByRole('status').textContent()).toBe(
      `Waiting for public randomness (round ${waiting.waitingForRound})…`,
    );
    expect(await page.getByTestId('display-protocol').textContent()).toBe(
      `Public randomness: drand round ${waiting.waitingForRound}`,
    );
    // Nobody asks for the draw yet: the round is due, the screen keeps waiting and says so.
    await expect.poll(() => wait.getAttribute('data-state'), { timeout: 5_000 }).toBe('due');
    expect(await page.getByTestId('beacon-wait-detail').textContent()).toBe(
      'Due now: the draw follows as soon as it arrives…',
    );
    expect(await page.getByTestId('display-draw').count()).toBe(0);

    const delays: number[] = [];
    let last: DrawResult | undefined;
    for (let position = 1; position <= 3; position++) {
      last = await drawPosition(call, game.id, position);
      const answered = performance.now();
      if (position === 1) await hidden(wait, 2_000);
      const shown = await drawShown(page, last.number);
      delays.push(shown - answered);
      if (position === 2) {
        // Once the number has sprung up (the first eighth of the animation), as the room sees it.
        await page.waitForFunction(() => document.getAnimations().every((a) => Number(a.currentTime) > 700));
        await page.screenshot({ path: `${SCREENSHOTS}/display-blue-spotlight.png` });
      }
    }
    expect(last?.game.status).toBe('settled');
    // Within a second as the room sees it; 1.5 s here, where four browser files share 2 cores with
    // the server and its relays (1,006–1,082 ms were measured so, 300–600 ms alone).
    for (const delay of delays) expect(delay).toBeLessThan(1500);

    // Once the last draw settled into the list: every draw in order, winners masked, and the proof checked here.
    await expect
      .poll(() => page.getByTestId('display-verdict').getAttribute('data-verdict'), { timeout: 10_000 })
      .toBe('verified');
    const settled = await apiAs<GameProof>(login(user), `/api/verify/${game.code}`);
    expect(await page.getByTestId('display-draw').evaluateAll((nodes) => nodes.map((n) => n.textContent))).toEqual(
      settled.draws.map((d) => String(d.number)),
    );
    expect(await page.getByTestId('display-winner').allTextContents()).toEqual(
      settled.draws.map((d) => (d.winner ? `${d.winner.name} · ${d.winner.phoneNumber}` : 'No winner')),
    );
    await page.screenshot({ path: `${SCREENSHOTS}/display-blue-settled-live.png` });
    expect(await qrIn(page, page.getByTestId('display-qr'))).toEqual([`${publicUrl()}/verify/${game.code}`]);
    expect(await page.getByTestId('display-verify-url').textContent()).toBe(
      `${new URL(publicUrl()).host}/verify/${game.code}`,
    );
    await page.context().close();
  });

  it('shows entries replaced through the API as sold numbers, with masked names only', async () => {
    const user = await gamePlayer();
    const { game, call } = await openGame(login(user), 0, []);
    const page = await displayPage(`/display/${game.code}?theme=white`);
    await expect.poll(() => connection(page).getAttribute('data-connection')).toBe('live');
    expect(await page.locator('[data-testid="display-number"][data-state="sold"]').count()).toBe(0);

    await call(`/api/games/${game.id}/entries`, { method: 'PUT', body: { entries: ENTRIES } });
    const sold = page.locator('[data-testid="display-number"][data-state="sold"]');
    await expect.poll(() => sold.count(), { timeout: 2_000 }).toBe(ENTRIES.length);
    expect(await sold.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-number'))))).toEqual(
      ENTRIES.map((e) => e.number),
    );
    const proof = await apiAs<GameProof>(login(user), `/api/verify/${game.code}`);
    for (const entry of proof.entries) {
      expect(await page.locator(`[data-testid="display-number"][data-number="${entry.number}"]`).textContent()).toBe(
        `${entry.number}${entry.name}`,
      );
    }
    const text = await page.locator('body').innerHTML();
    for (const entry of ENTRIES) {
      for (const word of entry.name.split(' ')) expect(text).not.toContain(word);
      expect(text).not.toContain(entry.phoneNumber);
    }

    // Replaced again: one participant removed, another added.
    const replaced = [...ENTRIES.slice(1), { number: 19, name: 'Zebedee Marchetti', phoneNumber: '555-0119' }];
    await call(`/api/games/${game.id}/entries`, { method: 'PUT', body: { entries: replaced } });
    await expect
      .poll(() => page.locator('[data-testid="display-number"][data-number="19"]').getAttribute('data-state'))
      .toBe('sold');
    expect(await sold.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-number'))))).toEqual(
      replaced.map((e) => e.number).sort((a, b) => a - b),
    );
    expect(await page.locator('body').innerHTML()).not.toContain('Zebedee');
    expect(await page.getByTestId('display-pool').textContent()).toBe('$50.00');
    await page.context().close();
  });

  it('says Voided with the reason when an admin voids a frozen game, and shows the draws it would have made as not paid', async () => {
    const user = await gamePlayer();
    const { game } = await openGame(login(user), 1);
    const page = await displayPage(`/display/${game.code}?theme=green`);
    await expect.poll(() => connection(page).getAttribute('data-connection')).toBe('live');
    // After the freeze the shop can no longer void it; the admin can.
    await expect(
      apiAs(login(user), `/api/games/${game.id}/void`, { body: { reason: 'The power went out' } }),
    ).rejects.toThrow(/403.*outcome is fixed/);
    await apiAs(DEMO.admin, `/api/games/${game.id}/void`, {
      body: { reason: 'The power went out', afterWinner: true },
    });
    const ended = page.getByTestId('display-ended');
    await visible(ended, 2_000);
    expect(await ended.textContent()).toContain('VoidedReason: The power went out');
    expect(await page.getByTestId('display-verdict').count()).toBe(0);
    const proof = await apiAs<GameProof>(login(user), `/api/verify/${game.code}`);
    expect(proof.unplayedDraws.map((d) => d.position)).toEqual([2, 3]);
    expect(await page.getByTestId('display-unplayed').evaluateAll((nodes) => nodes.map((n) => n.textContent))).toEqual(
      proof.unplayedDraws.map((d) => String(d.number)),
    );
    expect(await page.getByTestId('display-not-paid').allTextContents()).toEqual(
      proof.unplayedDraws.map(
        (d) =>
          `${d.winner ? `${d.winner.name} · ${d.winner.phoneNumber}` : 'No winner'}` +
          'Not paid — game voided by Admin A***: The power went out',
      ),
    );
    expect(await qrIn(page, page.getByTestId('display-qr'))).toEqual([`${publicUrl()}/verify/${game.code}`]);
    await page.screenshot({ path: `${SCREENSHOTS}/display-green-voided-frozen.png` });
    await page.context().close();
  });

  it('labels a LOT-DRAW-1 game (a demo game, voided by its agent) and shows its unplayed draws as not paid', async () => {
    const [voided] = (await apiAs<GameSummary[]>(DEMO.admin, '/api/games?status=voided')).filter(
      (g) => g.protocol === 'LOT-DRAW-1' && g.drawsCount > 0,
    );
    if (!voided) throw new Error('the demo data has no voided LOT-DRAW-1 game');
    const game = await apiAs<Game>(DEMO.admin, `/api/games/${voided.id}`);
    const page = await displayPage(`/display/${game.code}`, { reducedMotion: true });
    const label = page.getByTestId('display-protocol');
    await visible(label);
    expect(await label.textContent()).toBe(SERVER_RANDOMNESS_ONLY);
    expect(await label.getAttribute('data-protocol')).toBe('LOT-DRAW-1');
    const voider = game.voidedBy;
    if (!voider) throw new Error('no voider');
    const notPaid = page.getByTestId('display-not-paid');
    await expect.poll(() => notPaid.count()).toBe(game.unplayedDraws.length);
    expect(game.unplayedDraws.length).toBeGreaterThan(0);
    for (const text of await notPaid.allTextContents()) {
      expect(text).toContain(`Not paid — game voided by Agent ${maskName(voider.fullName)}: ${game.voidReason}`);
    }
    expect(await page.locator('body').innerHTML()).not.toContain(voider.fullName);
    await page.screenshot({ path: `${SCREENSHOTS}/display-lot-draw-1-voided.png` });
    await page.context().close();
  });

  it('says there is no game with an unknown code, and stops asking', async () => {
    const page = await displayPage('/display/NOSUCHGAMECODE', { clock: true });
    await visible(page.getByText('No game with this code'));
    // Every stream the page opens, counted as it opens it.
    await page.evaluate(() => {
      const Original = window.EventSource;
      const counted = window as unknown as { streamsOpened: number };
      counted.streamsOpened = 0;
      window.EventSource = class extends Original {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          counted.streamsOpened += 1;
        }
      };
    });
    // Three minutes of the page's timers at once: a step of the backoff (up to 10 s) or the
    // silence watchdog (45 s) would open a stream.
    await page.clock.runFor(180_000);
    expect(await page.evaluate(() => (window as unknown as { streamsOpened: number }).streamsOpened)).toBe(0);
    await visible(page.getByText('No game with this code'));
    expect(await page.getByTestId('display-connection').count()).toBe(0);
    await page.context().close();
  });

  it('offers the display from the play screen: a QR code of its address, and a new window that shows the game', async () => {
    const user = await gamePlayer();
    const { game } = await openGame(login(user));
    const context = await browser().newContext({ viewport: ROOM, baseURL: baseUrl() });
    const page = await context.newPage();
    screenshotOnFailure(page);
    await signIn(page, login(user));
    await page.goto('/user/number-game/play');
    await page.getByRole('radio', { name: 'Orange' }).click();
    await page.getByRole('button', { name: 'Customer display' }).click();
    const dialog = page.getByRole('dialog', { name: 'Customer display' });
    await visible(dialog);
    // Under PUBLIC_URL, not the address this page was opened on; the new window opens it.
    const url = `${publicUrl()}/display/${game.code}?theme=orange`;
    expect(await dialog.getByTestId('customer-display-url').textContent()).toBe(url);
    await page.screenshot({ path: `${SCREENSHOTS}/play-customer-display-offer.png` });
    expect(await qrIn(page, dialog.getByTestId('customer-display-qr'))).toEqual([url]);

    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('link', { name: 'Open in a new window' }).click(),
    ]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(url);
    await expect.poll(() => opened.getByTestId('display').getAttribute('data-theme')).toBe('orange');
    await expect.poll(() => opened.getByTestId('display-connection').getAttribute('data-connection')).toBe('live');
    await expect.poll(() => opened.locator('[data-testid="display-number"][data-state="sold"]').count()).toBe(5);
    await context.close();
  });

  it('looks right in every theme at 1920×1080 and at 375 px: nothing overflows, the room size needs no scrolling', async () => {
    const waiting = await openGame(login(await gamePlayer()));
    await freeze(waiting.call, waiting.game);
    const drawing = await openGame(login(await gamePlayer()), 2);
    const settled = await openGame(login(await gamePlayer()), 3);
    expect(settled.game.status).toBe('settled');
    const games = [
      ['waiting', waiting.game],
      ['drawing', drawing.game],
      ['settled', settled.game],
    ] as const;
    /** The game's screen as the room sees it once it has loaded: the wait, the draws or the verdict. */
    const shown = async (name: (typeof games)[number][0]) => {
      if (name === 'settled') {
        await expect
          .poll(() => page.getByTestId('display-verdict').getAttribute('data-verdict'), { timeout: 10_000 })
          .toBe('verified');
      } else if (name === 'drawing') {
        await expect.poll(() => page.getByTestId('display-draw').count()).toBe(2);
      } else {
        await visible(page.getByTestId('beacon-wait'));
        // The waiting screen is new: it passes axe in every theme and at both sizes.
        const screen = `display waiting in ${await page.getByTestId('display').getAttribute('data-theme')} at ${
          page.viewportSize()?.width
        } px`;
        expect(describeViolations(screen, await axeViolations(page))).toBe(
          `${screen}: no serious or critical violation`,
        );
      }
    };
    const page = await displayPage('/display/none', { reducedMotion: true });
    for (const theme of THEMES) {
      for (const [name, game] of games) {
        await page.goto(await pinned(`/display/${game.code}?theme=${theme}`));
        await expect.poll(() => page.getByTestId('display').getAttribute('data-theme')).toBe(theme);
        await shown(name);
        await page.screenshot({ path: `${SCREENSHOTS}/display-${theme}-${name}.png` });
        const size = await page.evaluate(() => ({
          width: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight,
        }));
        expect(size).toEqual({ width: ROOM.width, height: ROOM.height });
      }
    }
    await page.setViewportSize(PHONE);
    for (const [name, game] of games) {
      await page.goto(await pinned(`/display/${game.code}`));
      await shown(name);
      await page.screenshot({ path: `${SCREENSHOTS}/display-phone-${name}.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    }
    await page.context().close();
  });
});

/** A server of this test's own, on a fixed port and data dir, that can be stopped and started again. */
class OwnServer {
  private process: ChildProcess | null = null;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'lot-e2e-display-'));
  constructor(readonly port: number) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.process = (
      await startServer({ DATA_DIR: this.dataDir, PORT: String(this.port), ADMIN_PASSWORD: DEMO.admin.password })
    ).child;
  }

  /**
   * A shop made on this server by its admin (created on the first start), with 1,000.00 and a first
   * prize to play with: a few calls instead of the whole demo seed.
   */
  async shop() {
    const admin = await this.session(DEMO.admin);
    const shop = { username: 'display_shop', password: 'display-shop-1' };
    const { id } = await admin<{ id: number }>('/api/users', {
      body: { ...shop, fullName: 'Display Shop', role: 'user' },
    });
    await admin('/api/balance/topup', { body: { userId: id, amount: '1000.00' } });
    await admin('/api/winners', {
      body: { name: 'First prize', percent: '50', position: 1, isActive: true, userId: id },
    });
    return this.session(shop);
  }

  async stop() {
    const server = this.process;
    this.process = null;
    if (!server || server.exitCode !== null) return;
    server.kill('SIGTERM');
    await exitOf(server);
  }

  async dispose() {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Signs in on this server and answers a caller of its API. */
  async session(account: { username: string; password: string }) {
    const signin = await fetch(`${this.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (!signin.ok) throw new Error(`sign-in: ${signin.status} ${await signin.text()}`);
    const { accessToken } = (await signin.json()) as { accessToken: string };
    return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
      const response = await fetch(`${this.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
  }
}

describe('customer display across a server restart', () => {
  let own: OwnServer | null = null;
  afterAll(async () => {
    await own?.dispose();
  });

  it(
    'says Reconnecting… while the server is down and, once it is back, shows the next draw by itself',
    { timeout: 240_000 },
    async () => {
      own = new OwnServer(await freePort());
      await own.start();
      const call = await own.shop();
      const opened = await call<Game>('/api/games', { body: { startRange: 1, endRange: 20, betAmount: '10.00' } });
      await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: ENTRIES } });

      const page = await displayPage(`/display/${opened.code}`, { base: own.url });
      await expect.poll(() => connection(page).getAttribute('data-connection')).toBe('live');
      await expect.poll(() => page.locator('[data-testid="display-number"][data-state="sold"]').count()).toBe(5);

      await own.stop();
      await expect.poll(() => connection(page).getAttribute('data-connection')).toBe('reconnecting');
      await expect.poll(() => textOf(connection(page))).toBe('Reconnecting…');
      await own.start();
      await expect.poll(() => connection(page).getAttribute('data-connection'), { timeout: 20_000 }).toBe('live');
      await expect.poll(() => textOf(connection(page))).toBe('Live');
      // The token signed before the restart is still good: the secret lives in the data dir.
      const draw = await call<DrawResult>(`/api/games/${opened.id}/draws`, { body: { position: 1 } });
      await drawShown(page, draw.number, 20_000);
      // That draw settled the game: its anonymous stream ended with it, so the display no longer
      // says Live (decision 088).
      await expect.poll(() => connection(page).count()).toBe(0);
      await page.context().close();
    },
  );
});
