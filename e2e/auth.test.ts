import type { Page, Request } from 'playwright-core';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { DEMO, DESKTOP, openPage, screenshotOnFailure, signIn, useBrowser, visible } from './support.ts';

const browser = useBrowser();

type Role = keyof typeof DEMO;

/** A well-formed stored user record (docs/product/screens.md#browser-storage). */
const SESSION_USER = {
  id: 1,
  username: 'admin',
  fullName: 'Administrator',
  shopName: null,
  hasLogo: false,
  role: 'admin',
  parentId: null,
};

const path = (page: Page) => new URL(page.url()).pathname;

const stored = (page: Page) =>
  page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user') }));

/** The texts of the form's alerts (field errors and the banner), in page order. */
const alerts = (page: Page) => page.locator('form [role="alert"]').allInnerTexts();

let shared: Page | undefined;

/**
 * One page for the whole file, which keeps the suite quick: storage is emptied after every test
 * and every test starts with a full page load, so no state carries over.
 */
async function fresh(): Promise<Page> {
  if (!shared) {
    shared = await openPage(browser(), DESKTOP, { keepOpen: true });
    shared.setDefaultTimeout(10_000);
  } else {
    screenshotOnFailure(shared);
  }
  return shared;
}

afterEach(async () => {
  await shared?.evaluate(() => localStorage.clear()).catch(() => undefined);
});

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('sign-in', () => {
  for (const role of Object.keys(DEMO) as Role[]) {
    it(`${role}: reads 'Signing in...' while busy, lands on /${role}/dashboard, and the session survives a reload`, async () => {
      const page = await fresh();
      await page.goto('/login');
      await fillLogin(page, DEMO[role].username, DEMO[role].password);

      // The screen waits 500 ms after success, still on /login, with the button busy.
      const busy = page.getByRole('button', { name: 'Signing in...' });
      expect(await visible(busy)).toBe(true);
      expect(await busy.isDisabled()).toBe(true);

      await page.waitForURL((url) => url.pathname === `/${role}/dashboard`);
      const session = await stored(page);
      expect(session.token).toMatch(/\S{20,}/);
      expect(JSON.parse(session.user ?? 'null')).toMatchObject({ username: DEMO[role].username, role });
      expect(await visible(page.locator('#sidebar nav'))).toBe(true);

      await page.reload();
      expect(await visible(page.locator('#sidebar nav'))).toBe(true);
      expect(path(page)).toBe(`/${role}/dashboard`);
      expect(await stored(page)).toEqual(session);
    });
  }

  it("a wrong password shows the server's message exactly and the visitor stays on /login", async () => {
    const page = await fresh();
    await page.goto('/login');
    await fillLogin(page, DEMO.admin.username, 'not-the-password');
    await visible(page.getByText('Invalid username or password'));
    expect(await alerts(page)).toEqual(['Invalid username or password']);
    expect(path(page)).toBe('/login');
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    expect(await stored(page)).toEqual({ token: null, user: null });

    // An unknown username gets the same words, and a good sign-in afterwards clears the message.
    await fillLogin(page, 'nobody_by_this_name', 'whatever1');
    await visible(page.getByText('Invalid username or password'));
    await fillLogin(page, DEMO.user.username, DEMO.user.password);
    await page.waitForURL((url) => url.pathname === '/user/dashboard');
  });

  it('an empty form shows both field messages and sends nothing', async () => {
    const page = await fresh();
    let signins = 0;
    const count = (request: Request) => {
      if (request.url().includes('/api/auth/signin')) signins += 1;
    };
    page.on('request', count);
    onTestFinished(() => {
      page.off('request', count);
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Password is required'));
    expect(await alerts(page)).toEqual(['Username is required', 'Password is required']);

    // A username made of spaces counts as empty.
    await page.getByLabel('Username').fill('   ');
    await page.getByLabel('Password').fill('something');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The form refused it: its last step on a refusal puts the cursor in the first wrong field
    // (from the button just clicked), and a refused form sends nothing.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username');
    expect(await alerts(page)).toEqual(['Username is required']);
    expect(signins).toBe(0);
    expect(path(page)).toBe('/login');
  });

  it('the login screen shows the product, the marketing panel and the terms notice', async () => {
    const page = await fresh();
    await page.goto('/login');
    expect(await visible(page.getByRole('heading', { name: 'Lottery Management System' }))).toBe(true);
    expect(await visible(page.getByText('Terms of Service'))).toBe(true);
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
  });
});

describe('the auth guard and the stored session', () => {
  it('visitors without a session are sent to /login from every protected route', async () => {
    const page = await fresh();
    for (const target of [
      '/',
      '/admin/dashboard',
      '/superagent/users',
      '/user/dashboard',
      '/sales-history',
      '/profile',
      '/no/such/page',
    ]) {
      await page.goto(target);
      await page.waitForURL((url) => url.pathname === '/login');
      expect(`${target} -> ${path(page)}`).toBe(`${target} -> /login`);
    }
    expect(await visible(page.getByRole('button', { name: 'Sign in' }))).toBe(true);
  });

  for (const [kind, corrupt] of [
    ['not JSON', '{this is not json'],
    ['JSON of the wrong shape', JSON.stringify({ id: 'seven', role: 'admin' })],
    ['of an unknown role', JSON.stringify({ ...SESSION_USER, role: 'overlord' })],
  ] as const) {
    it(`a stored user record that is ${kind} clears token and user and lands on /login`, async () => {
      const page = await fresh();
      await page.goto('/login');
      await page.evaluate((user) => {
        localStorage.setItem('token', 'some-token');
        localStorage.setItem('user', user);
      }, corrupt);
      await page.goto('/admin/dashboard');
      await page.waitForURL((url) => url.pathname === '/login');
      expect(await stored(page)).toEqual({ token: null, user: null });
      expect(await visible(page.getByRole('button', { name: 'Sign in' }))).toBe(true);
    });
  }

  it('a token without a user record is not a session', async () => {
    const page = await fresh();
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('token', 'left-over-token'));
    await page.goto('/agent/dashboard');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(path(page)).toBe('/login');
  });

  it('a token the server rejects ends the session at the first call: back to /login, storage cleared', async () => {
    const page = await fresh();
    await page.goto('/login');
    // A well-formed record with a token the server never issued: the shell opens from storage and
    // asks for the logo (hasLogo) with it, which the server refuses.
    await page.evaluate(
      (user) => {
        localStorage.setItem('token', 'forged-token');
        localStorage.setItem('user', user);
      },
      JSON.stringify({ ...SESSION_USER, hasLogo: true }),
    );
    const refused = page.waitForResponse((response) => response.url().includes('/api/users/1/logo'));
    await page.goto('/admin/dashboard');
    expect((await refused).status()).toBe(401);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await stored(page)).toEqual({ token: null, user: null });
  });
});

describe('/debug', () => {
  it('shows the environment, API base, token and stored user; Go Home and Clear Storage & Logout work', async () => {
    const page = await fresh();
    await signIn(page, DEMO.superagent);
    await page.evaluate(() => localStorage.setItem('selectedNumbers', '[]'));
    await page.goto('/debug');
    const origin = new URL(page.url()).origin;
    const row = (label: string) => page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
    expect(await visible(page.getByRole('heading', { name: 'Debug' }))).toBe(true);
    expect(await row('Environment').locator('dd').innerText()).toBe('production');
    expect(await row('API base').locator('dd').innerText()).toContain(origin);
    expect(await row('Token').locator('dd').innerText()).toBe('present');
    const user = JSON.parse(await page.locator('pre').innerText()) as Record<string, unknown>;
    expect(user).toMatchObject({ username: 'super1', fullName: 'Sam Super', role: 'superagent' });

    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL((url) => url.pathname === '/superagent/dashboard');

    await page.goto('/debug');
    await page.getByRole('button', { name: 'Clear Storage & Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto('/superagent/dashboard');
    await page.waitForURL((url) => url.pathname === '/login');

    await page.goto('/debug');
    expect(await row('Token').locator('dd').innerText()).toBe('none');
    expect(await page.locator('pre').innerText()).toBe('none');
  });
});
