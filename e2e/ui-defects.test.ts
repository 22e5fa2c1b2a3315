import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  hidden,
  login,
  openPage,
  PHONE,
  signIn,
  useBrowser,
  visible,
} from './support.ts';

/** Rough edges found by trying every screen as a new user would, each held by a test. */
describe('the rough edges stay fixed', () => {
  const browser = useBrowser();

  it('Escape closes the phone menu', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.agent);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sidebar = page.locator('#sidebar');
    expect(await sidebar.getAttribute('data-open')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await sidebar.getAttribute('data-open')).toBe('false');
  });

  it('a session the server ends sends the user to sign in, saying why', async () => {
    const account = await freshUser('superagent');
    const page = await openPage(browser());
    await signIn(page, login(account));
    // The token no longer holds (as after it expired): the next call is refused with a 401. It is
    // swapped on a page of the same origin without the app, so no call of the old page (the bell's
    // poll) can meet the bad token first and sign out before the navigation under test.
    await page.goto('/favicon.svg');
    await page.evaluate(() => localStorage.setItem('token', 'expired.token.value'));
    await page.goto('/superagent/users');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await visible(page.getByText('Your session has expired. Please sign in again.'))).toBe(true);
    // Signing in again clears it.
    await signIn(page, login(account));
    await page.goto('/superagent/users');
    expect(await page.getByText('Your session has expired. Please sign in again.').count()).toBe(0);
  });

  it('the sign-in page has a main landmark and a visible heading on a phone, and does not jump when it refuses', async () => {
    const page = await openPage(browser(), PHONE);
    await page.goto('/login');
    expect(await visible(page.getByRole('heading', { level: 1, name: 'Sign in to your account' }))).toBe(true);
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.title()).toBe('Sign in · LOT');
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.reload();
      const before = await page.getByLabel('Username').boundingBox();
      await page.getByLabel('Username').fill('nobody_here');
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page.getByRole('alert'));
      expect((await page.getByLabel('Username').boundingBox())?.y).toBe(before?.y);
    }
  });

  it('the site has an icon', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^image\//);
    }
  });

  it('a failed history load says so within two seconds, totals included, and Try Again recovers', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    let fail = true;
    // Timed from the first refusal, not from navigation: the page's own load is not what is measured.
    let firstRefusal = 0;
    await page.route(
      (url) => url.pathname === '/api/sales-history/filter',
      (route) => {
        if (!fail) return route.fallback();
        firstRefusal ||= Date.now();
        return route.fulfill({ status: 502, body: 'Bad Gateway' });
      },
    );
    await page.goto('/admin/sales-history');
    await visible(page.getByText('Failed to fetch sales history'), 5_000);
    expect(Date.now() - firstRefusal).toBeLessThan(2_000);
    expect(await page.getByText('Bad Gateway').count()).toBe(0);
    expect(await page.getByTestId('total-games').textContent()).toBe('—');
    fail = false;
    await page.getByRole('button', { name: 'Try Again' }).click();
    await hidden(page.getByText('Failed to fetch sales history'));
    await expect.poll(() => page.getByTestId('total-games').textContent()).toMatch(/^\d+$/);
  });

  it('a notice never covers the page heading, and pagination keeps one line on a phone', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.admin);
    await page.goto('/admin/transactions');
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await visible(pager);
    // One line: every button's middle at the same height (wrapped, Next sat a line lower).
    const middles = await pager.getByRole('button').evaluateAll((all) =>
      all.map((button) => {
        const box = button.getBoundingClientRect();
        return box.top + box.height / 2;
      }),
    );
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(2);
    expect(await pager.getByRole('button', { name: 'Next' }).count()).toBe(1);

    await page.goto('/profile');
    await visible(page.getByRole('heading', { name: 'Profile' }).last());
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const toast = page.getByRole('status').filter({ hasText: /profile/i });
    await visible(toast);
    await overlapsNothing(page, toast, page.locator('main h1, main h2').first());
  });
});

async function overlapsNothing(_page: Page, a: ReturnType<Page['locator']>, b: ReturnType<Page['locator']>) {
  const [one, two] = [await a.boundingBox(), await b.boundingBox()];
  if (!one || !two) throw new Error('not laid out');
  const apart =
    one.y >= two.y + two.height ||
    two.y >= one.y + one.height ||
    one.x >= two.x + two.width ||
    two.x >= one.x + one.width;
  expect(apart).toBe(true);
}
