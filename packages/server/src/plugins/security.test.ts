import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppOptions } from '../app.ts';
import { createTestApp, TEST_DB, type TestApp, withWebApp } from '../test/test-app.ts';

/**
 * Issue 43: `upgrade-insecure-requests`, HSTS and Cross-Origin-Opener-Policy only for pages served
 * over https. On a shop's plain-http LAN address the first made every phone fetch the page's
 * scripts and styles over https, and the page stayed blank (e2e/plain-http-lan.test.ts shows it in
 * a browser); browsers ignore the other two over http.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ beacon: 'off' });
});
afterAll(() => t?.close());

/** The page, a client route, a built asset and an API answer: every kind the browser loads. */
const URLS = ['/', '/display/ABC123', '/assets/app-1234.js', '/api/health'];

/** What each URL answers, from an app started with `options`, asked as `request` says. */
async function headersOf(
  options: Pick<AppOptions, 'publicUrl' | 'trustProxy'>,
  request: { headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<{ url: string; headers: Record<string, unknown> }[]> {
  const seen: { url: string; headers: Record<string, unknown> }[] = [];
  await withWebApp(
    t,
    { 'assets/app-1234.js': 'console.log(1)' },
    async (web: FastifyInstance) => {
      for (const url of URLS) {
        const response = await web.inject({ method: 'GET', url, ...request });
        expect(response.statusCode, url).toBe(200);
        seen.push({ url, headers: response.headers });
      }
    },
    options,
  );
  return seen;
}

/** The CSP's directives, by name. */
const directives = (headers: Record<string, unknown>) => String(headers['content-security-policy']).split(';');

/** Over plain http: none of the three, the rest of the policy as ever. */
function expectPlain(seen: Awaited<ReturnType<typeof headersOf>>) {
  for (const { url, headers } of seen) {
    expect(directives(headers), url).not.toContain('upgrade-insecure-requests');
    expect(directives(headers), url).toEqual(expect.arrayContaining(["default-src 'self'", "frame-ancestors 'none'"]));
    expect(headers['strict-transport-security'], url).toBeUndefined();
    expect(headers['cross-origin-opener-policy'], url).toBeUndefined();
    expect(headers['x-frame-options'], url).toBe('SAMEORIGIN');
  }
}

function expectHttps(seen: Awaited<ReturnType<typeof headersOf>>) {
  for (const { url, headers } of seen) {
    expect(directives(headers), url).toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    expect(headers['cross-origin-opener-policy'], url).toBe('same-origin');
  }
}

const FORWARDED_HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'lot.example.com' };

describe(`upgrade-insecure-requests, HSTS and COOP only over https (${TEST_DB})`, () => {
  it('a shop on plain http (PUBLIC_URL http://192.168.1.20:3000, or none) gets none of them', async () => {
    expectPlain(await headersOf({ publicUrl: 'http://192.168.1.20:3000' }, { headers: { host: '192.168.1.20:3000' } }));
    expectPlain(await headersOf({}, { headers: { host: '192.168.1.20:3000' } }));
  });

  it('PUBLIC_URL https gets them, also on a hop that came in over http', async () => {
    expectHttps(await headersOf({ publicUrl: 'https://lot.example.com' }));
  });

  it("a trusted proxy's X-Forwarded-Proto: https gets them; the same header from anyone else does not", async () => {
    const behindProxy = { publicUrl: 'http://192.168.1.20:3000', trustProxy: ['10.0.0.1'] };
    expectHttps(await headersOf(behindProxy, { headers: FORWARDED_HTTPS, remoteAddress: '10.0.0.1' }));
    expectHttps(await headersOf({ trustProxy: ['10.0.0.1'] }, { headers: FORWARDED_HTTPS, remoteAddress: '10.0.0.1' }));
    expectPlain(await headersOf(behindProxy, { headers: FORWARDED_HTTPS, remoteAddress: '10.0.0.9' }));
    expectPlain(await headersOf({}, { headers: FORWARDED_HTTPS, remoteAddress: '10.0.0.1' }));
  });
});
