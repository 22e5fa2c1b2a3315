import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { configureWinners, drawAll, drawPosition, openGame, voidCall } from '../../test/game-fixtures.ts';
import { expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp, withWebApp } from '../../test/test-app.ts';
import { READY_TIMEOUT_MS } from './health.routes.ts';

/** Operations (decision 026): metrics, readiness, request ids, the proxy's client address. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of the sample `name` whose labels include `labels`, in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

const metrics = async (app: TestApp = t, remoteAddress?: string): Promise<LightMyRequestResponse> =>
  app.app.inject({ method: 'GET', url: '/metrics', ...(remoteAddress ? { remoteAddress } : {}) });

const signinAs = (app: TestApp, username: string, password: string, forwardedFor?: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { username, password },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe(`GET /metrics (${TEST_DB})`, () => {
  it('counts requests per route pattern, money calls by outcome and failed sign-ins, from loopback', async () => {
    await fund(t, h.S1.id, '10.00');
    const before = (await metrics()).body;
    expectStatus(await money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: '1.00' }), 200);
    expectStatus(await money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: '1000000.00' }), 422);
    // Refused before the database is asked (to oneself): counted all the same.
    expectStatus(await money(t, h.S1.token, 'transfer', { receiverId: h.S1.id, amount: '1.00' }), 400);
    expectStatus(await signinAs(t, h.U1.username, 'wrong-password'), 401);
    expectStatus(await t.request(h.S1.token, { method: 'GET', url: `/api/balance/${h.A1.id}` }), 200);

    const response = await metrics();
    expectStatus(response, 200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = response.body;
    const grew = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(grew('lot_money_operations_total', { kind: 'transfer', outcome: 'ok' })).toBe(1);
    expect(grew('lot_money_operations_total', { kind: 'transfer', outcome: 'refused' })).toBe(2);
    expect(grew('lot_signins_total', { outcome: 'failed' })).toBe(1);
    const transfers = { method: 'POST', route: '/api/balance/transfer' };
    expect(grew('lot_http_requests_total', { ...transfers, status_class: '2xx' })).toBe(1);
    expect(grew('lot_http_requests_total', { ...transfers, status_class: '4xx' })).toBe(2);
    expect(grew('lot_http_request_duration_seconds_count', { ...transfers, status_class: '2xx' })).toBe(1);
    // The pattern, never the raw URL with its id.
    expect(sample(after, 'lot_http_requests_total', { route: '/api/balance/:userId' })).toBeGreaterThan(0);
    expect(after).not.toContain(`/api/balance/${h.A1.id}`);
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    for (const name of ['lot_games_total', 'lot_money_operations_total', 'lot_signins_total'])
      expect(after).toContain(`# TYPE ${name} counter`);
    // The embedded database reports its one connection (modules/health/beacon-monitoring.test.ts).
    expect(sample(after, 'lot_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('labels every file of the built web app "static": two hashed assets are one series, not one each', async () => {
    const assets = { 'assets/index-AbC123.js': 'console.log(1)', 'assets/index-DeF456.css': 'body{}' };
    await withWebApp(t, assets, async (web) => {
      for (const url of ['/assets/index-AbC123.js', '/assets/index-DeF456.css'])
        expectStatus(await web.inject({ method: 'GET', url }), 200);
      const text = (await web.inject({ method: 'GET', url: '/metrics' })).body;
      const series = text.split('\n').filter((line) => line.startsWith('lot_http_requests_total{'));
      expect(series.filter((line) => line.includes('/assets/'))).toEqual([]);
      expect(sample(text, 'lot_http_requests_total', { method: 'GET', route: 'static', status_class: '2xx' })).toBe(2);
    });
  });

  it('counts a replayed money call as replayed', async () => {
    await fund(t, h.S2.id, '5.00');
    const before = (await metrics()).body;
    const payload = { receiverId: h.A3.id, amount: '1.00' };
    expectStatus(await money(t, h.S2.token, 'transfer', payload, 'ops-replay-1'), 200);
    expectStatus(await money(t, h.S2.token, 'transfer', payload, 'ops-replay-1'), 200);
    const after = (await metrics()).body;
    for (const outcome of ['ok', 'replayed'])
      expect(
        sample(after, 'lot_money_operations_total', { kind: 'transfer', outcome }) -
          sample(before, 'lot_money_operations_total', { kind: 'transfer', outcome }),
        outcome,
      ).toBe(1);
  });

  it('counts games settled, voided after a draw and discarded before one', async () => {
    await configureWinners(t, null, [
      { percent: '50', position: 1 },
      { percent: '25', position: 2 },
    ]);
    await fund(t, h.U1.id, '100.00');
    const before = (await metrics()).body;
    const settled = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: [1, 2, 3] }));
    expect(settled.status).toBe('settled');
    const drawn = await openGame(t, h.U1, { numbers: [4, 5, 6] });
    expectStatus(await drawPosition(t, h.U1.token, drawn.id, 1), 200);
    // The draw has started: the shop's agent voids it.
    expectStatus(await voidCall(t, h.A1.token, drawn.id, 'customer left'), 200);
    const undrawn = await openGame(t, h.U1, { numbers: [7, 8, 9] });
    expectStatus(await voidCall(t, h.U1.token, undrawn.id, 'no players'), 200);
    const after = (await metrics()).body;
    for (const outcome of ['settled', 'voided', 'discarded'])
      expect(
        sample(after, 'lot_games_total', { outcome }) - sample(before, 'lot_games_total', { outcome }),
        outcome,
      ).toBe(1);
  });

  it('answers any other address as if it did not exist', async () => {
    for (const address of ['203.0.113.9', '10.0.0.1', '::ffff:192.0.2.1', '2001:db8::1']) {
      const response = await metrics(t, address);
      expect(response.statusCode, address).toBe(404);
      expect(response.json(), address).toEqual({
        message: SERVER_MESSAGES.notFound,
        code: 'NOT_FOUND',
        requestId: expect.any(String),
      });
    }
    // The same answer as a path that does not exist, header for header.
    const refused = await metrics(t, '203.0.113.9');
    const nothing = await t.app.inject({ method: 'GET', url: '/metricz', remoteAddress: '203.0.113.9' });
    const without = (headers: Record<string, unknown>) => {
      const { 'x-request-id': _id, 'server-timing': _timing, date: _date, ...rest } = headers;
      return rest;
    };
    expect(without(refused.headers)).toEqual(without(nothing.headers));
    expect({ ...refused.json(), requestId: '' }).toEqual({ ...nothing.json(), requestId: '' });
    expectStatus(await metrics(t, '::1'), 200);
    expectStatus(await metrics(t, '::ffff:127.0.0.1'), 200);
  });

  it('is not under /api', async () => {
    expectStatus(await t.request(null, { method: 'GET', url: '/api/metrics' }), 404);
  });
});

describe(`GET /api/ready (${TEST_DB})`, () => {
  it('is ready while the database answers', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/ready' });
    expectStatus(response, 200);
    expect(response.json()).toMatchObject({ status: 'ready', beacon: { mode: 'required', up: true } });
  });

  describe('on a database that stops answering', () => {
    let broken: TestApp;
    beforeAll(async () => {
      broken = await createTestApp();
    });
    afterAll(() => broken?.close());

    const notReady = { message: SERVER_MESSAGES.notReady, code: 'UNAVAILABLE', requestId: expect.any(String) };

    it('answers 503 with the error shape when a query fails', async () => {
      const down = vi.spyOn(broken.app.context.db, 'execute').mockRejectedValue(new Error('connection refused'));
      try {
        const response = await broken.request(null, { method: 'GET', url: '/api/ready' });
        expectStatus(response, 503);
        expect(response.json()).toEqual(notReady);
        expect(response.body).not.toContain('connection refused');
      } finally {
        down.mockRestore();
      }
      expectStatus(await broken.request(null, { method: 'GET', url: '/api/ready' }), 200);
    });

    it('answers 503 within its bound when the database hangs', async () => {
      const hung = vi.spyOn(broken.app.context.db, 'execute').mockReturnValue(new Promise(() => {}) as never);
      try {
        const started = performance.now();
        const response = await broken.request(null, { method: 'GET', url: '/api/ready' });
        const took = performance.now() - started;
        expectStatus(response, 503);
        expect(response.json()).toEqual(notReady);
        expect(took).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 20);
        expect(took).toBeLessThan(READY_TIMEOUT_MS + 1000);
      } finally {
        hung.mockRestore();
      }
    });
  });
});

describe(`request ids (${TEST_DB})`, () => {
  it('answers every request with one, and an error body carries the same', async () => {
    const ok = await t.request(null, { method: 'GET', url: '/api/health' });
    expect(ok.headers['x-request-id']).toMatch(UUID);
    const missing = await t.request(null, { method: 'GET', url: '/api/nothing-here' });
    expect(missing.headers['x-request-id']).toMatch(UUID);
    expect(missing.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
    expect(missing.json()).toEqual({
      message: SERVER_MESSAGES.notFound,
      code: 'NOT_FOUND',
      requestId: missing.headers['x-request-id'],
    });
    const invalid = await money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: 'lots' });
    expectStatus(invalid, 400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR', requestId: invalid.headers['x-request-id'] });
  });

  it('keeps a short, plain incoming X-Request-Id and replaces any other', async () => {
    const safe = 'edge-7f3a.9:B_c';
    const kept = await t.request(null, { method: 'GET', url: '/api/nothing-here', headers: { 'x-request-id': safe } });
    expect(kept.headers['x-request-id']).toBe(safe);
    expect(kept.json<{ requestId: string }>().requestId).toBe(safe);
    for (const unsafe of ['a'.repeat(65), 'has space', 'semi;colon', '<script>', '"quoted"', '../x', '']) {
      const response = await t.request(null, {
        method: 'GET',
        url: '/api/nothing-here',
        headers: { 'x-request-id': unsafe },
      });
      expect(response.headers['x-request-id'], unsafe).toMatch(UUID);
      expect(response.json<{ requestId: string }>().requestId, unsafe).toBe(response.headers['x-request-id']);
    }
  });
});

describe(`TRUST_PROXY and the sign-in throttle (${TEST_DB})`, () => {
  const throttle = async (app: TestApp, username: string) => {
    for (let i = 0; i < 5; i++) expectStatus(await signinAs(app, username, 'wrong-password', '198.51.100.1'), 401);
    expectStatus(await signinAs(app, username, 'wrong-password', '198.51.100.1'), 429);
    return signinAs(app, username, 'wrong-password', '198.51.100.2');
  };

  it('ignores X-Forwarded-For when unset: every attempt through one proxy counts as one address', async () => {
    expectStatus(await throttle(t, 'ops_nobody'), 429);
  });

  describe('when set to the proxy', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      proxied = await createTestApp({ trustProxy: ['127.0.0.1'], metricsAllow: ['10.0.0.0/8'] });
    });
    afterAll(() => proxied?.close());

    it('throttles the client named by X-Forwarded-For, not the proxy', async () => {
      expectStatus(await throttle(proxied, 'ops_nobody'), 401);
      const counted = (await metrics(proxied, '10.1.2.3')).body;
      expect(sample(counted, 'lot_signins_total', { outcome: 'throttled' })).toBe(1);
      expect(sample(counted, 'lot_signins_total', { outcome: 'failed' })).toBe(6);
    });

    it('opens GET /metrics to METRICS_ALLOW by the socket address, never by X-Forwarded-For', async () => {
      expectStatus(await metrics(proxied, '10.200.0.1'), 200);
      expectStatus(await metrics(proxied), 404);
      const forwarded = await proxied.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { 'x-forwarded-for': '10.0.0.1' },
      });
      expectStatus(forwarded, 404);
    });
  });
});
