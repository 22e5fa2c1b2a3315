import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject, onTestFailed, onTestFinished, type TestContext } from 'vitest';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';

export const baseUrl = () => inject('baseUrl');
/** The server's PUBLIC_URL (global-setup.ts): what QR codes and shared links start with. */
export const publicUrl = () => inject('publicUrl');
/** The test beacon's chain, to pin on the verify page (`?chain=…&publicKey=…`) as a verifier would. */
export const testBeacon = () => inject('beacon');

/** Demo logins (npm run seed:demo). */
export const DEMO = {
  admin: { username: 'admin', password: 'admin123' },
  superagent: { username: 'super1', password: 'demo1234' },
  agent: { username: 'agent1', password: 'demo1234' },
  user: { username: 'user1', password: 'demo1234' },
} as const;

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 375, height: 812 };

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // PUBLIC_URL's host (global-setup.ts) is the test server: a link followed from a QR code's
  // address opens it.
  '--host-resolver-rules=MAP lot.test 127.0.0.1',
];

/**
 * The Chromium the tests drive, always Debian's (never a downloaded one): `CHROMIUM_PATH` if set,
 * else Debian's headless shell (package chromium-headless-shell, the same engine without the
 * desktop browser around it: it used about a quarter less CPU over the same browser files, and
 * Chromium is most of the browser tests' CPU; decision 095), else the full /usr/bin/chromium.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';
}

/**
 * One Chromium per test file. Like an https deployment, PUBLIC_URL's pages are a secure context
 * (Web Crypto checks the proof); with `plainHttp` they are what a shop's LAN address over plain
 * http is to a phone: not a secure context.
 */
export function useBrowser(options: { plainHttp?: boolean } = {}): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: options.plainHttp
        ? CHROMIUM_ARGS
        : [...CHROMIUM_ARGS, `--unsafely-treat-insecure-origin-as-secure=${publicUrl()}`],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('browser not started');
    return browser;
  };
}

/**
 * A fresh page (own storage) for the current test: its screenshot is kept when the test fails, and
 * it is closed when the test ends, so a page a test is done with stops polling the server and
 * painting for the rest of the file. `keepOpen`: a page the file shares between its tests (closed
 * with the browser).
 */
export async function openPage(browser: Browser, viewport = DESKTOP, { keepOpen = false } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  const page = await context.newPage();
  if (keepOpen) screenshotOnFailure(page);
  else
    // Vitest runs a test's onTestFinished before its onTestFailed: the screenshot is taken here.
    onTestFinished(async ({ task }) => {
      if (task.result?.state === 'fail') await screenshot(page, task);
      await context.close().catch(() => undefined);
    });
  return page;
}

/** Keeps a screenshot of the page if the current test fails (for pages shared between tests). */
export function screenshotOnFailure(page: Page): void {
  onTestFailed(({ task }) => screenshot(page, task));
}

async function screenshot(page: Page, task: TestContext['task']): Promise<void> {
  mkdirSync('test-results/e2e', { recursive: true });
  const name = `${task.file?.name ?? 'e2e'}-${task.name}`.replace(/[^\w-]+/g, '_').slice(0, 150);
  await page.screenshot({ path: `test-results/e2e/${name}.png`, fullPage: true }).catch(() => undefined);
}

/** Signs in through the login screen and waits for the dashboard. */
export async function signIn(page: Page, login: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(login.username);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(admin|superagent|agent|user)\/dashboard$/);
}

/** Calls the API directly (setting up data), as the given user: one sign-in, one call. */
export async function apiAs<T>(
  login: { username: string; password: string },
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  return (await sessionOf(login))<T>(path, init);
}

let counter = 0;
/** A fresh account created by the admin, so that each test file owns the data it changes. */
export async function freshUser(
  role: 'superagent' | 'agent' | 'user',
  options: { parentId?: number; fullName?: string; password?: string; username?: string } = {},
): Promise<{ id: number; username: string; password: string; fullName: string }> {
  const username = options.username ?? `e2e_${role}_${process.pid}_${Date.now() % 100000}_${++counter}`;
  const password = options.password ?? 'e2e-password';
  const fullName = options.fullName ?? `E2E ${role} ${counter}`;
  const created = await apiAs<{ id: number }>(DEMO.admin, '/api/users', {
    body: { username, password, fullName, role, parentId: options.parentId },
  });
  return { id: created.id, username, password, fullName };
}

/** Waits until the element is visible (playwright-core has no auto-waiting expect). */
export async function visible(locator: Locator, timeout = 10_000): Promise<true> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return true;
}

/** Waits until the element is hidden or gone. */
export async function hidden(locator: Locator, timeout = 10_000): Promise<true> {
  await locator.first().waitFor({ state: 'hidden', timeout });
  return true;
}

/**
 * Two frames and a task in the page: whatever a render scheduled (its effects, the fetches they
 * start) has run. An event to wait for instead of a fixed pause, before checking that something
 * did not happen.
 */
export async function frames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
}

/**
 * The element's whole text, trimmed ('' when it has none), read once: for `expect.poll`, as in
 * `await expect.poll(() => textOf(total)).toBe('60.00%')` (totals keep the old one while loading).
 */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent())?.trim() ?? '';
}

export type Account = Awaited<ReturnType<typeof freshUser>>;

export const login = ({ username, password }: Account) => ({ username, password });

/** How pickers name a person: 'Full Name (username)'. */
export const label = (account: Account) => `${account.fullName} (${account.username})`;

/** YYYY-MM-DD in this machine's zone (the browser's too), `offset` days from today. */
export function day(offset = 0): string {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Signs in once and answers a caller of the API as that user (setting up data without a sign-in per call). */
export async function sessionOf(account: { username: string; password: string }) {
  const signin = await fetch(`${baseUrl()}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!signin.ok) throw new Error(`sign-in of ${account.username}: ${signin.status} ${await signin.text()}`);
  const { accessToken } = (await signin.json()) as { accessToken: string };
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

type Caller = Awaited<ReturnType<typeof sessionOf>>;

/**
 * Asks for a position's draw until it is made, as the play screen does: the first request freezes
 * the game, and a LOT-DRAW-2 game answers 202 until its beacon round exists (about a second with
 * the test beacon); each 202 says how long to wait.
 */
export async function drawPosition(call: Caller, gameId: number, position: number): Promise<DrawResult> {
  for (;;) {
    const answer = await call<DrawResult | DrawWaiting>(`/api/games/${gameId}/draws`, { body: { position } });
    if (!('waitingForRound' in answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, Math.max(100, answer.retryAfterMs)));
  }
}

export type GameEntry = { number: number; name: string; phoneNumber: string };
export type GameSetup = { startRange: number; endRange: number; bet: number; entries: GameEntry[] };

/**
 * Plays a whole game through the server's API as the player would from the play screen: opens it,
 * enters the participants, draws every prize position, waiting for the beacon round after the
 * freeze (the last draw settles it). Answers the
 * settled game. Stops after `draws` positions when told (a game left drawing).
 */
export async function playGame(
  account: { username: string; password: string },
  setup: GameSetup,
  options: { draws?: number } = {},
): Promise<Game> {
  const call = await sessionOf(account);
  const opened = await call<Game>('/api/games', {
    body: { startRange: setup.startRange, endRange: setup.endRange, betAmount: setup.bet.toFixed(2) },
  });
  let game = await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: setup.entries } });
  const positions = Math.min(options.draws ?? game.prizes.length, game.prizes.length);
  for (let position = 1; position <= positions; position++) {
    game = (await drawPosition(call, game.id, position)).game;
  }
  return game;
}

/**
 * The sample game for a player whose one active setting is P1 50%: A, B and C pick every number of
 * 1–3 at `bet` dollars, so the one draw always has a winner. Pool 3 × bet, prize and commission
 * 1.5 × bet each, 3 selected, 1 winner, whichever number the server draws.
 */
export function sampleGame(bet: number): GameSetup {
  return {
    startRange: 1,
    endRange: 3,
    bet,
    entries: [
      { number: 1, name: 'A', phoneNumber: '555-1001' },
      { number: 2, name: 'B', phoneNumber: '555-1002' },
      { number: 3, name: 'C', phoneNumber: '555-1003' },
    ],
  };
}

/**
 * A player under `parentId` with 1000.00 topped up and own settings P1 50%, who has played `games`
 * sample games at `bet` dollars through the server (each leaves a commission of 1.5 × bet).
 */
export async function player(options: { parentId?: number; fullName: string; games: number; bet: number }) {
  const user = await freshUser('user', { parentId: options.parentId, fullName: options.fullName });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: '1000' } });
  await apiAs(login(user), '/api/winners', { body: { name: 'P1', percent: '50', position: 1, isActive: true } });
  for (let i = 0; i < options.games; i++) await playGame(login(user), sampleGame(options.bet));
  return user;
}

/**
 * Reads every QR code an image holds, as a scanner would: the PNG decoded by sharp, the code found
 * and decoded by jsQR (a real decoder, not the library that drew it). Each region of `regions`
 * (default: the whole image) is searched on its own, since jsQR finds one code per image.
 */
export async function decodeQr(png: Buffer, regions?: { left: number; top: number; width: number; height: number }[]) {
  const { default: sharp } = await import('sharp');
  const { default: jsQR } = await import('jsqr');
  const found: string[] = [];
  for (const region of regions ?? [undefined]) {
    const image = region ? sharp(png).extract(region) : sharp(png);
    const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
    if (code) found.push(code.data);
  }
  return found;
}
