import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, openPage, signIn, useBrowser } from './support.ts';

/**
 * Route loaders (docs/ARCHITECTURE.md#data-loading): following a menu link starts the screen's
 * data fetch together with its code chunk, not after the chunk has loaded and rendered, and the
 * screen shows that answer instead of asking again. Each new chunk is held back for a while: a
 * screen that fetched only once rendered would ask after the hold ends.
 */

const HOLD_MS = 800;

type Trace = { apiAt: number[]; chunksReleasedAt: number[] };

/** From now on, every JavaScript chunk waits HOLD_MS; API calls to `api` are timed. */
async function trace(page: Page, api: RegExp): Promise<Trace> {
  const traced: Trace = { apiAt: [], chunksReleasedAt: [] };
  page.on('request', (request) => {
    if (api.test(new URL(request.url()).pathname)) traced.apiAt.push(Date.now());
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    traced.chunksReleasedAt.push(Date.now());
    await route.continue();
  });
  return traced;
}

const CASES = [
  { login: DEMO.admin, link: 'Sales History', api: /^\/api\/sales-history\/filter$/, url: /\/admin\/sales-history$/ },
  { login: DEMO.admin, link: 'All Transactions', api: /^\/api\/transactions$/, url: /\/admin\/transactions$/ },
  { login: DEMO.admin, link: 'Reports', api: /^\/api\/reports\/downline$/, url: /\/admin\/reports$/ },
  {
    login: DEMO.agent,
    link: 'Sales History',
    api: /^\/api\/sales-history\/agent\/\d+$/,
    url: /\/agent\/sales-history$/,
  },
  { login: DEMO.user, link: 'Day Close', api: /^\/api\/reports\/day-close$/, url: /\/user\/day-close$/ },
  { login: DEMO.user, link: 'Game History', api: /^\/api\/sales-history\/user\/\d+$/, url: /\/sales-history$/ },
] as const;

describe('a screen asks for its data as navigation starts', () => {
  const browser = useBrowser();

  it.each(CASES)('$login.username → $link', async ({ login, link, api, url }) => {
    const page = await openPage(browser());
    await signIn(page, login);
    const traced = await trace(page, api);
    await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).first().click();
    await page.waitForURL(url);
    await expect.poll(() => traced.chunksReleasedAt.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => traced.apiAt.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // A screen that asked again would do so as it renders, just after its last chunk: a second
    // request is an absence to wait for, so the test watches for a while longer.
    await page.waitForTimeout(2 * HOLD_MS);

    expect(traced.apiAt.length, 'the screen asked once, and took the loader’s answer').toBe(1);
    const [askedAt = Infinity] = traced.apiAt;
    expect(askedAt, 'asked before its code arrived').toBeLessThan(Math.max(...traced.chunksReleasedAt));
    await page.context().close();
  });
});
