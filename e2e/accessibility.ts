import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Game } from '@lot/domain/schemas/games';
import { axeViolations, describeViolations } from './axe.ts';
import {
  apiAs,
  baseUrl,
  DEMO,
  DESKTOP,
  frames,
  login,
  PHONE,
  player,
  playGame,
  sampleGame,
  screenshotOnFailure,
  sessionOf,
  signIn,
  testBeacon,
  useBrowser,
  type Account,
} from './support.ts';

/**
 * docs/ARCHITECTURE.md#accessibility: axe-core finds no serious or critical violation on any screen
 * of any role, nor on the public pages, at 1280 px and at 375 px. One page per role: it signs in
 * once and moves between screens client-side; each screen is checked at both widths in place.
 * The screens are checked by three files (`accessibility-*.test.ts`), so that four browser files
 * at a time share them out; each file makes only what its own screens show.
 */

type Screen = {
  /** What the failure message calls it. */
  name: string;
  path: () => string;
  /** Shown once the screen's own content is there (beside the generic wait for loading). */
  ready?: (page: Page) => Locator;
  /** Brings the screen to the state checked (opens a dialog); `close` puts it back. */
  open?: (page: Page) => Promise<void>;
  close?: (page: Page) => Promise<void>;
  /** Sets up what the screen shows, once, before moving to it. */
  prepare?: (page: Page) => Promise<unknown>;
  /** Widths checked (both unless told). */
  widths?: readonly (typeof DESKTOP)[];
};

/**
 * What the screens show, made by `prepare` in each file's beforeAll (a file makes what it needs; the
 * files of a worker run one after another). The shop every user screen shows: own games, a settled
 * one to verify and display, one in play.
 */
let shop: Account;
let settled: Game;
let playing: Game;
/** The demo agent's shops' games: one frozen (to finish or void), one voided after its freeze. */
let frozen: Game;
let voided: Game;
/** The test beacon pinned on the verify page (`?chain=&publicKey=&genesisTime=&period=`). */
let pin = '';

const dialog = (name: string) => ({
  open: async (page: Page) => {
    await page.getByRole('button', { name, exact: true }).first().click();
    await page.getByRole('dialog', { name }).waitFor({ state: 'visible' });
  },
  close: async (page: Page) => {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  },
});

const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true });

/** A frozen game's action on the Games in progress tab, and the dialog it opens. */
const inProgressDialog = (action: 'Finish' | 'Void', title: string) => ({
  open: async (page: Page) => {
    await page
      .getByTestId('in-progress-drawing')
      .getByRole('button', { name: new RegExp(`^${action} `) })
      .first()
      .click();
    await page.getByRole('dialog', { name: title }).waitFor({ state: 'visible' });
  },
  close: dialog(title).close,
});

/** The upline's Games in progress tab of a sales-history screen. */
const inProgress = (path: string): Screen => ({
  name: 'sales history, games in progress',
  path: () => `${path}?view=in-progress`,
  ready: rows('in-progress-row'),
});
const rows = (testId: string) => (page: Page) => page.getByTestId(testId);

/** A play-screen control that opens something and Escape closes. */
const overlay = (button: string, opened: (page: Page) => Locator) => ({
  open: async (page: Page) => {
    await page.getByRole('button', { name: button, exact: true }).click();
    await opened(page).waitFor({ state: 'visible' });
  },
  close: async (page: Page) => {
    await page.keyboard.press('Escape');
    await opened(page).waitFor({ state: 'hidden' });
  },
});

/** The play screen in another of its themes (chosen in the screen, kept in this browser; back to blue after). */
const theme = (name: string): Screen => ({
  name: `play screen, ${name.toLowerCase()} theme`,
  path: () => '/user/number-game/play',
  ready: rows('selected-row'),
  open: (page) => page.getByRole('radio', { name, exact: true }).click(),
  close: (page) => page.getByRole('radio', { name: 'Blue', exact: true }).click(),
});

const common: Screen[] = [
  { name: 'profile', path: () => '/profile', ready: rows('sessions') },
  { name: 'transactions', path: () => '/transactions', ready: rows('transaction-row') },
];

export const SCREENS: Record<keyof typeof DEMO, Screen[]> = {
  admin: [
    { name: 'dashboard', path: () => '/admin/dashboard', ready: heading('Recent Transactions') },
    {
      name: 'phone menu open',
      path: () => '/admin/dashboard',
      widths: [PHONE],
      open: async (page) => {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.locator('#sidebar[data-open="true"]').waitFor();
      },
      close: async (page) => {
        await page.getByRole('button', { name: 'Close menu' }).click();
        await page.locator('#sidebar[data-open="false"]').waitFor({ state: 'attached' });
      },
    },
    {
      name: 'user menu open',
      path: () => '/admin/dashboard',
      open: async (page) => {
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByRole('menu').waitFor();
      },
      close: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'hidden' });
      },
    },
    { name: 'users', path: () => '/admin/users', ready: rows('user-row') },
    { name: 'add user dialog', path: () => '/admin/users', ready: rows('user-row'), ...dialog('Add New User') },
    { name: 'super agents', path: () => '/admin/superagents', ready: rows('user-row') },
    { name: 'agents', path: () => '/admin/agents', ready: rows('user-row') },
    { name: 'all transactions', path: () => '/admin/transactions', ready: rows('transaction-row') },
    { name: 'winner configurations', path: () => '/admin/winners', ready: rows('winner-row') },
    { name: 'sales history', path: () => '/admin/sales-history', ready: rows('sale-row') },
    inProgress('/admin/sales-history'),
    { name: 'reports', path: () => '/admin/reports', ready: rows('report-row') },
    { name: 'audit trail', path: () => '/admin/audit', ready: rows('audit-row') },
    { name: 'unpaid prizes', path: () => '/admin/unpaid-prizes', ready: rows('claim-row') },
    { name: 'statement', path: () => `/statements/${shop.id}`, ready: rows('statement-movement') },
    {
      // A set-up begun and left (it changes nothing until a code confirms it).
      name: 'two-factor set-up dialog',
      path: () => '/profile',
      ready: rows('sessions'),
      open: async (page) => {
        await page.getByRole('button', { name: 'Set up two-factor sign-in', exact: true }).click();
        const opened = page.getByRole('dialog', { name: 'Set up two-factor sign-in' });
        await opened.getByRole('button', { name: 'Begin set-up' }).click();
        await opened.getByTestId('two-factor-secret').waitFor();
      },
      close: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      },
    },
    ...common,
  ],
  superagent: [
    { name: 'dashboard', path: () => '/superagent/dashboard', ready: heading('Quick Links') },
    { name: 'agents', path: () => '/superagent/agents', ready: rows('user-row') },
    { name: 'users', path: () => '/superagent/users', ready: rows('user-row') },
    { name: 'add user dialog', path: () => '/superagent/users', ready: rows('user-row'), ...dialog('Add User') },
    { name: 'sales history', path: () => '/superagent/sales-history', ready: rows('sale-row') },
    inProgress('/superagent/sales-history'),
    { name: 'reports', path: () => '/superagent/reports', ready: rows('report-row') },
    { name: 'audit trail', path: () => '/superagent/audit', ready: rows('audit-row') },
    ...common,
  ],
  agent: [
    { name: 'dashboard', path: () => '/agent/dashboard', ready: heading('Quick Actions') },
    { name: 'users', path: () => '/agent/users', ready: rows('user-row') },
    { name: 'sales history', path: () => '/agent/sales-history', ready: rows('sale-row') },
    inProgress('/agent/sales-history'),
    {
      name: 'finish game dialog',
      path: () => '/agent/sales-history?view=in-progress',
      ready: rows('in-progress-row'),
      ...inProgressDialog('Finish', 'Finish game'),
    },
    {
      name: 'void game dialog',
      path: () => '/agent/sales-history?view=in-progress',
      ready: rows('in-progress-row'),
      ...inProgressDialog('Void', 'Void game'),
    },
    { name: 'reports', path: () => '/agent/reports', ready: rows('report-row') },
    { name: 'audit trail', path: () => '/agent/audit', ready: rows('audit-row') },
    ...common,
  ],
  user: [
    { name: 'dashboard', path: () => '/user/dashboard', ready: heading('Quick Links') },
    {
      name: 'transfer dialog',
      path: () => '/user/dashboard',
      ready: heading('Quick Links'),
      ...dialog('Transfer Funds'),
    },
    { name: 'lottery game', path: () => '/user/number-game', ready: heading('BOCH BOCH') },
    { name: 'play screen, game in play', path: () => '/user/number-game/play', ready: rows('selected-row') },
    {
      name: 'participant dialog',
      path: () => '/user/number-game/play',
      ready: rows('selected-row'),
      open: async (page) => {
        await page.getByRole('group', { name: 'Numbers' }).getByRole('button', { name: '20', exact: true }).click();
        await page.getByRole('dialog', { name: 'Enter Participant Details' }).waitFor();
      },
      close: dialog('Enter Participant Details').close,
    },
    {
      name: 'reset dialog',
      path: () => '/user/number-game/play',
      ready: rows('selected-row'),
      ...overlay('Reset Game', (page) => page.getByRole('dialog')),
    },
    theme('White'),
    theme('Green'),
    theme('Orange'),
    { name: 'winner settings', path: () => '/user/winner-settings', ready: rows('winner-row') },
    { name: 'game history', path: () => '/sales-history', ready: rows('sale-row') },
    {
      name: 'game winners',
      path: () => `/game-winners/${settled.saleId}`,
      ready: (page) => heading(`Game #${settled.number}`)(page),
    },
    { name: 'slips', path: () => `/user/number-game/slips/${settled.id}`, ready: heading('Slips') },
    { name: 'day close', path: () => '/user/day-close', ready: heading('Balance Statement') },
    { name: 'pay prizes', path: () => '/user/pay-prizes', ready: heading('Pay Prizes') },
    { name: 'unpaid prizes', path: () => '/user/unpaid-prizes', ready: rows('claim-row') },
    ...common,
    {
      name: 'play screen, game discarded elsewhere',
      path: () => '/user/number-game/play',
      prepare: () => apiAs(login(shop), `/api/games/${playing.id}/void`, { body: { reason: 'accessibility test' } }),
      ready: (page) => page.getByText('This game was discarded', { exact: false }),
    },
    {
      name: 'play screen, new game',
      path: () => '/user/number-game/play',
      // The screen before left the discarded game on screen: New Game puts the setup back.
      prepare: (page) => page.getByRole('button', { name: 'New Game', exact: true }).click(),
      ready: heading('Selected Numbers (0)'),
    },
  ],
};

export const PUBLIC: Screen[] = [
  { name: 'login', path: () => '/login', ready: (page) => page.getByLabel('Username') },
  {
    name: 'verify',
    path: () => `/verify/${settled.code}?${pin}`,
    ready: (page) => page.getByText('Verified', { exact: true }),
  },
  {
    name: 'verify, voided game',
    path: () => `/verify/${voided.code}?${pin}`,
    ready: rows('verify-unplayed-draw'),
  },
  {
    name: 'verify, frozen game',
    path: () => `/verify/${frozen.code}?${pin}`,
    ready: rows('verify-beacon'),
  },
  { name: 'display, settled game', path: () => `/display/${settled.code}`, ready: rows('display-qr') },
  {
    name: 'display, game in play',
    path: () => `/display/${playing.code}`,
    ready: (page) => page.getByRole('list', { name: 'Numbers of the game' }),
  },
  { name: 'debug', path: () => '/debug', ready: heading('Stored user') },
];

/** A page of its own (own storage) at the wide width, whose requests are followed. */
async function newPage(browser: () => Browser) {
  const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl() });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  trackRequests(page);
  return page;
}

/** API calls in flight per page (a display's event stream never ends: not counted). */
const inFlight = new WeakMap<Page, Set<unknown>>();
function trackRequests(page: Page) {
  const pending = new Set<unknown>();
  inFlight.set(page, pending);
  page.on('request', (request) => {
    if (!request.url().includes('/events')) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/** Waits until the screen has loaded: its own content, no request in flight, no loading text, no transition running. */
async function settle(page: Page, screen: Screen) {
  await screen.ready?.(page).first().waitFor({ state: 'visible' });
  const pending = inFlight.get(page);
  // No request in flight, also once the page has run what the last answers made it do.
  for (;;) {
    await expect.poll(() => pending?.size ?? 0).toBe(0);
    await frames(page);
    if (!pending?.size) break;
  }
  await page
    .getByText(/^Loading/)
    .first()
    .waitFor({ state: 'hidden' });
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** Moves to the path (and query) inside the single-page app (no reload: the session and caches stay). */
async function go(page: Page, path: string) {
  const here = (url: URL) => `${url.pathname}${url.search}`;
  if (here(new URL(page.url())) === path) return;
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await page.waitForURL((url) => here(url) === path);
}

async function check(page: Page, role: string, screen: Screen) {
  await screen.prepare?.(page);
  await go(page, screen.path());
  const failures: string[] = [];
  for (const width of screen.widths ?? [DESKTOP, PHONE]) {
    await page.setViewportSize(width);
    await settle(page, screen);
    if (screen.open) {
      await screen.open(page);
      await settle(page, screen);
    }
    const violations = await axeViolations(page);
    if (violations.length) failures.push(describeViolations(`${role} ${screen.name} at ${width.width} px`, violations));
    if (screen.close) await screen.close(page);
  }
  await page.setViewportSize(DESKTOP);
  expect(failures.join('\n\n'), failures.join('\n\n')).toBe('');
}

/** The shop the user screens show: a settled game, an inactive configuration, a game in play. */
async function prepareShop(parentId: number) {
  shop = await player({ parentId, fullName: 'Axe Shop', games: 2, bet: 5 });
  settled = await playGame(login(shop), sampleGame(5));
  // An inactive configuration too: greyed rows must stay readable.
  await apiAs(login(shop), '/api/winners', { body: { name: 'P2', percent: '10', position: 2, isActive: false } });
  // A game in play with more participants than the Selected Numbers list shows at once.
  const call = await sessionOf(login(shop));
  playing = await call<Game>('/api/games', { body: { startRange: 1, endRange: 30, betAmount: '2.00' } });
  const entries = Array.from({ length: 14 }, (_, i) => ({
    number: i + 1,
    name: `Player ${i + 1}`,
    phoneNumber: `555-20${String(i).padStart(2, '0')}`,
  }));
  await call(`/api/games/${playing.id}/entries`, { method: 'PUT', body: { entries } });
}

/** What a file's screens show, made before they are checked. */
type Needs = { shop?: boolean; frozen?: boolean; voided?: boolean };

async function prepare(needs: Needs) {
  const agent = await apiAs<{ userId: number }>(DEMO.agent, '/api/balance');
  // Independent, so made at the same time (a draw waits for its beacon round).
  await Promise.all([
    needs.shop && prepareShop(agent.userId),
    // The demo agent's shops: a game frozen by its first draw (LOT-DRAW-2 waits for its round)…
    needs.frozen &&
      (async () => {
        const frozenShop = await player({ parentId: agent.userId, fullName: 'Axe Frozen Shop', games: 0, bet: 5 });
        frozen = await playGame(login(frozenShop), sampleGame(5), { draws: 0 });
        await apiAs(login(frozenShop), `/api/games/${frozen.id}/draws`, { body: { position: 1 } });
      })(),
    // …and one frozen then voided by the agent.
    needs.voided &&
      (async () => {
        const voidShop = await player({ parentId: agent.userId, fullName: 'Axe Void Shop', games: 0, bet: 5 });
        voided = await playGame(login(voidShop), sampleGame(5), { draws: 0 });
        await apiAs(login(voidShop), `/api/games/${voided.id}/draws`, { body: { position: 1 } });
        await apiAs(DEMO.agent, `/api/games/${voided.id}/void`, {
          body: { reason: 'accessibility test', afterWinner: true },
        });
      })(),
  ]);
  const beacon = testBeacon();
  const info = (await (await fetch(`${beacon.url}/info`)).json()) as { genesis_time: number; period: number };
  pin = new URLSearchParams({
    chain: beacon.chainHash,
    publicKey: beacon.publicKey,
    genesisTime: String(info.genesis_time),
    period: String(info.period),
  }).toString();
}

/**
 * Checks the screens of the roles named (and the public pages, with `publicPages`) in this file:
 * one Chromium, one signed-in page per role.
 */
export function accessibilitySuite(options: { publicPages?: boolean; roles: (keyof typeof DEMO)[]; needs: Needs }) {
  const browser = useBrowser();
  beforeAll(() => prepare(options.needs));

  if (options.publicPages)
    describe('public pages', () => {
      let page: Page;
      beforeAll(async () => {
        page = await newPage(browser);
        await page.goto('/login');
      });
      afterAll(() => page?.context().close());

      for (const screen of PUBLIC) {
        it(screen.name, async () => {
          screenshotOnFailure(page);
          await check(page, 'public', screen);
        });
      }
    });

  for (const role of options.roles) {
    describe(role, () => {
      let page: Page;
      beforeAll(async () => {
        page = await newPage(browser);
        await signIn(page, role === 'user' ? login(shop) : DEMO[role]);
      });
      afterAll(() => page?.context().close());

      for (const screen of SCREENS[role]) {
        it(screen.name, async () => {
          screenshotOnFailure(page);
          await check(page, role, screen);
        });
      }
    });
  }
}
