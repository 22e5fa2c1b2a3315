import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, frames, openPage, signIn, useBrowser } from './support.ts';

/**
 * Route loaders (docs/ARCHITECTURE.md#data-loading): following a menu link starts the screen's
 * data fetch together with its code chunk, not after the chunk has loaded and rendered, and the
 * screen shows that answer instead of asking again. Each new chunk is held back for a while: a
 * screen that fetched only once rendered would ask after the hold ends.
 */

const HOLD_MS = 800;

/** Chunks by address: a chunk the page asks twice (a preload, then its import) may finish once or twice. */
type Trace = {
  apiAt: number[];
  apiDone: number;
  chunksAsked: Set<string>;
  chunksReleasedAt: number[];
  chunksDone: Set<string>;
};

/** Every chunk asked for is in (finished or failed). */
const chunksIn = (traced: Trace) => [...traced.chunksAsked].every((url) => traced.chunksDone.has(url));

/**
 * From now on, every JavaScript chunk waits HOLD_MS; requests to `api` are timed; and the page
 * counts its own calls to `api` as it makes them (`window.apiCalls`), so that a count read after
 * its effects have run is final.
 */
async function trace(page: Page, api: RegExp): Promise<Trace> {
  const traced: Trace = { apiAt: [], apiDone: 0, chunksAsked: new Set(), chunksReleasedAt: [], chunksDone: new Set() };
  const isChunk = (url: string) => /\/assets\/.*\.js$/.test(new URL(url).pathname);
  page.on('request', (request) => {
    if (api.test(new URL(request.url()).pathname)) traced.apiAt.push(Date.now());
  });
  // A request that failed (a chunk the page stopped waiting for, under load) is over too: counting
  // only finished ones left a screen "unsettled" for good.
  const over = (request: Request) => {
    if (api.test(new URL(request.url()).pathname)) traced.apiDone += 1;
    if (isChunk(request.url())) traced.chunksDone.add(request.url());
  };
  page.on('requestfinished', over);
  page.on('requestfailed', over);
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    traced.chunksAsked.add(route.request().url());
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    traced.chunksReleasedAt.push(Date.now());
    await route.continue();
  });
  await page.evaluate((source) => {
    const pattern = new RegExp(source);
    const counted = window as unknown as { apiCalls: number };
    counted.apiCalls = 0;
    const original = window.fetch;
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
      if (pattern.test(url.pathname)) counted.apiCalls += 1;
      return original(input, init);
    };
  }, api.source);
  return traced;
}

/**
 * Until the screen has everything it asked for: its answer and every chunk in, and nothing more
 * asked for while the page ran what those made it do.
 */
async function settled(page: Page, traced: Trace) {
  for (;;) {
    await expect.poll(() => traced.apiDone > 0 && chunksIn(traced), { timeout: 30_000 }).toBe(true);
    const asked = traced.chunksAsked.size + traced.apiAt.length;
    await frames(page);
    if (traced.chunksAsked.size + traced.apiAt.length === asked && chunksIn(traced)) return;
  }
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
  { login: DEMO.user, link: 'Balance Statement', api: /^\/api\/reports\/day-close$/, url: /\/user\/day-close$/ },
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
    // A screen that asked again would do so as it renders, after its last chunk: once every chunk
    // and the answer are in and the page has run what they made it do, the page's own count is final.
    await settled(page, traced);

    expect(
      await page.evaluate(() => (window as unknown as { apiCalls: number }).apiCalls),
      'the screen asked once, and took the loader’s answer',
    ).toBe(1);
    expect(traced.apiAt).toHaveLength(1);
    const [askedAt = Infinity] = traced.apiAt;
    expect(askedAt, 'asked before its code arrived').toBeLessThan(Math.max(...traced.chunksReleasedAt));
    await page.context().close();
  });
});
