import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { Game } from '@lot/domain/schemas/games';
import { FAILURE_WINDOW_SECONDS, MAX_FAILURES } from '../modules/auth/auth.service.ts';
import { configureWinners, drawCall, drawPosition, openGame } from '../test/game-fixtures.ts';
import { buildHierarchy, PASSWORD, type Hierarchy } from '../test/hierarchy.ts';
import { leaks } from '../test/leaks.ts';
import { expectStatus, fund } from '../test/money-fixtures.ts';
import { multipart } from '../test/multipart.ts';
import { createStoppedClockApp } from '../test/stopped-clock.ts';
import { TEST_DB, type TestApp, withWebApp } from '../test/test-app.ts';

/**
 * Issue 10, suite 5: security headers on every kind of response — the server-run game's and its
 * public proof's (docs/decisions/013-the-server-runs-every-game.md) included — a sign-in throttle
 * that cannot lock a person out for good, body and list limits, and error bodies that never carry
 * a stack trace or SQL — including a real 500 from a broken database, on a signed-in call and on
 * the public proof.
 */

let t: TestApp;
let h: Hierarchy;
/** U1's game in progress, drawn once: its proof is public. U2's, frozen, waits for its beacon round (the clock stands still). */
let game: Game;
let waiting: Game;
beforeAll(async () => {
  t = await createStoppedClockApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '25.00', position: 2 },
  ]);
  await fund(t, h.U1.id, '100.00');
  await fund(t, h.U2.id, '100.00');
  game = await openGame(t, h.U1, { numbers: [1, 2, 3], bet: '1.00' });
  expectStatus(await drawPosition(t, h.U1.token, game.id, 1), 200);
  waiting = await openGame(t, h.U2, { numbers: [1, 2], bet: '1.00' });
  expectStatus(await drawCall(t, h.U2.token, waiting.id, 1), 202);
});
afterAll(() => t?.close());

/** Every response, whatever its status or type; API answers are never cached. */
function expectSecurityHeaders(response: LightMyRequestResponse, label: string, api = true) {
  const headers = response.headers;
  const csp = String(headers['content-security-policy']);
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['x-frame-options'], label).toMatch(/^(DENY|SAMEORIGIN)$/);
  // Served over plain http (no PUBLIC_URL): HSTS and COOP only over https (plugins/security.test.ts).
  expect(headers['strict-transport-security'], label).toBeUndefined();
  expect(headers['cross-origin-opener-policy'], label).toBeUndefined();
  expect(headers['referrer-policy'], label).toBe('no-referrer');
  expect(headers['x-request-id'], label).toMatch(/^[\w.:-]{1,64}$/);
  expect(headers['cross-origin-resource-policy'], label).toBe('same-origin');
  expect(headers['x-powered-by'], label).toBeUndefined();
  // Answers carry tokens, balances and people: no shared cache may keep them.
  if (api) expect(String(headers['cache-control']), label).toMatch(/no-store|private/);
}

describe(`headers (${TEST_DB})`, () => {
  it('every kind of response carries the security headers', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const uploaded = await t.request(h.U1.token, {
      method: 'PUT',
      url: `/api/users/${h.U1.id}`,
      ...multipart({ fullName: 'User One' }, { logo: { filename: 'a.png', contentType: 'image/png', data: png } }),
    });
    expect(uploaded.statusCode).toBe(200);
    const cases: [string, string | null, InjectOptions, number][] = [
      ['health', null, { method: 'GET', url: '/api/health' }, 200],
      ['readiness', null, { method: 'GET', url: '/api/ready' }, 200],
      ['metrics', null, { method: 'GET', url: '/metrics' }, 200],
      ['metrics from elsewhere', null, { method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' }, 404],
      [
        'sign-in',
        null,
        { method: 'POST', url: '/api/auth/signin', payload: { username: 'user_two', password: PASSWORD } },
        200,
      ],
      ['list', t.adminToken, { method: 'GET', url: '/api/users' }, 200],
      ['logo image', h.U1.token, { method: 'GET', url: `/api/users/${h.U1.id}/logo` }, 200],
      ['OpenAPI document', null, { method: 'GET', url: '/api/openapi.json' }, 200],
      ['HEAD', null, { method: 'HEAD', url: '/api/health' }, 200],
      ['no token', null, { method: 'GET', url: '/api/balance' }, 401],
      ['role refused', h.U1.token, { method: 'GET', url: '/api/winners' }, 403],
      ['no such route', null, { method: 'GET', url: '/api/nothing-here' }, 404],
      [
        'bad input',
        t.adminToken,
        { method: 'POST', url: '/api/balance/topup', payload: { userId: 'x', amount: 1 } },
        400,
      ],
      [
        'bad JSON',
        t.adminToken,
        { method: 'POST', url: '/api/balance/topup', payload: '{', headers: { 'content-type': 'application/json' } },
        400,
      ],
      [
        'conflict',
        t.adminToken,
        {
          method: 'POST',
          url: '/api/users',
          payload: { username: 'user_one', password: PASSWORD, fullName: 'Again', role: 'user' },
        },
        409,
      ],
      [
        'too large',
        t.adminToken,
        {
          method: 'POST',
          url: '/api/balance/topup',
          payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }),
          headers: { 'content-type': 'application/json' },
        },
        413,
      ],
      [
        'wrong content type',
        t.adminToken,
        { method: 'POST', url: '/api/balance/topup', payload: '<a/>', headers: { 'content-type': 'application/xml' } },
        415,
      ],
      [
        'insufficient',
        h.U2.token,
        { method: 'POST', url: '/api/balance/transfer', payload: { receiverId: h.U1.id, amount: '999.00' } },
        422,
      ],
      ['public proof', null, { method: 'GET', url: `/api/verify/${game.code}` }, 200],
      ['public proof with a session', h.U5.token, { method: 'GET', url: `/api/verify/${game.code}` }, 200],
      ['public proof of no game', null, { method: 'GET', url: `/api/verify/${'A'.repeat(22)}` }, 404],
      ['public proof, code too long', null, { method: 'GET', url: `/api/verify/${'x'.repeat(65)}` }, 400],
      ['game read', h.A1.token, { method: 'GET', url: `/api/games/${game.id}` }, 200],
      ['games list', h.S1.token, { method: 'GET', url: '/api/games?status=drawing' }, 200],
      [
        'draw asked again',
        h.U1.token,
        { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } },
        200,
      ],
      [
        'draw out of order',
        h.U1.token,
        { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 3 } },
        409,
      ],
      [
        'draw that waits for its round, asked by the agent',
        h.A1.token,
        { method: 'POST', url: `/api/games/${waiting.id}/draws`, payload: { position: 1 } },
        202,
      ],
      [
        'the shop voiding its frozen game',
        h.U1.token,
        { method: 'POST', url: `/api/games/${game.id}/void`, payload: { reason: 'x' } },
        403,
      ],
      [
        'second game in progress',
        h.U1.token,
        { method: 'POST', url: '/api/games', payload: { startRange: 1, endRange: 20, betAmount: '1.00' } },
        409,
      ],
      [
        'someone else’s game',
        h.U2.token,
        { method: 'POST', url: `/api/games/${game.id}/void`, payload: { reason: 'x' } },
        404,
      ],
    ];
    for (const [label, token, request, status] of cases) {
      const response = await t.request(token, request);
      expect(response.statusCode, `${label}: ${response.body.slice(0, 200)}`).toBe(status);
      expectSecurityHeaders(response, label, String(request.url).startsWith('/api/'));
      // A draw that waits says when to ask again.
      if (status === 202) expect(Number(response.headers['retry-after']), label).toBeGreaterThanOrEqual(1);
    }
    console.log(`headers (${TEST_DB}): ${cases.length} kinds of response checked`);
  });
});

describe(`headers of the web app (${TEST_DB})`, () => {
  it('the page, a client route and a built asset carry them too', async () => {
    await withWebApp(t, { 'assets/app-1234.js': 'console.log(1)' }, async (web) => {
      for (const [url, status] of [
        ['/', 200],
        ['/admin/dashboard', 200],
        ['/assets/app-1234.js', 200],
        ['/assets/missing.js', 404],
        ['/api/nothing', 404],
      ] as const) {
        const response = await web.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(status);
        expectSecurityHeaders(response, url, url.startsWith('/api/'));
      }
    });
  });
});

describe(`sign-in throttling cannot lock anyone out for good (${TEST_DB})`, () => {
  const signin = (username: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username, password }, remoteAddress, headers });
  const ATTACKER = '203.0.113.9';
  const OWNER = '198.51.100.7';

  it('an attacker locks only their own address, briefly, and cannot stretch or dodge it', async () => {
    for (let i = 0; i < MAX_FAILURES; i += 1)
      expect((await signin('user_three', 'wrong-guess', ATTACKER)).statusCode).toBe(401);
    // Throttled: even the right password, from the attacker's address, waits.
    const locked = await signin('user_three', PASSWORD, ATTACKER);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      message: SERVER_MESSAGES.tooManyAttempts,
      code: 'RATE_LIMITED',
      requestId: expect.any(String),
    });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(FAILURE_WINDOW_SECONDS);
    // Hammering on does not extend it, and neither another spelling nor a forged forwarding header gets round it.
    for (const [username, headers] of [
      ['user_three', {}],
      ['USER_THREE', {}],
      ['user_three', { 'x-forwarded-for': '192.0.2.1' }],
      ['User_Three', { 'x-real-ip': '192.0.2.2', forwarded: 'for=192.0.2.3' }],
    ] as [string, Record<string, string>][]) {
      const again = await signin(username, 'wrong-guess', ATTACKER, headers);
      expect(again.statusCode, username).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(retryAfter);
    }
    // The owner, from their own address, signs in all along.
    expect((await signin('user_three', PASSWORD, OWNER)).statusCode).toBe(200);
    // Once the window has passed, the attacker's address is free again too (no lockout for good).
    await t.database.db.execute(
      sql`UPDATE signin_failures SET created_at = created_at - make_interval(secs => ${FAILURE_WINDOW_SECONDS + 1})`,
    );
    expect((await signin('user_three', PASSWORD, ATTACKER)).statusCode).toBe(200);
    // And a success clears the count: the next wrong guess is a plain 401, not a 429.
    for (let i = 0; i < MAX_FAILURES; i += 1)
      expect((await signin('user_three', 'wrong-guess', ATTACKER)).statusCode).toBe(401);
    expect((await signin('user_three', 'wrong-guess', ATTACKER)).statusCode).toBe(429);
  });
});

describe(`limits and leaks (${TEST_DB})`, () => {
  it('bodies over 1 MB, lists over 1000 rows (with a plain message) and over-long ids are refused', async () => {
    const big = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: JSON.stringify({ username: 'big', password: PASSWORD, fullName: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Every list's page size and position have one plain message each, not zod's own wording.
    const pages: [string, string, string][] = [
      ['/api/users?limit=1001', 'limit', 'Choose at most 1,000 rows per page'],
      ['/api/audit?limit=1001', 'limit', 'Choose at most 1,000 rows per page'],
      ['/api/shifts?pageSize=201', 'pageSize', 'Choose at most 200 rows per page'],
      ['/api/transactions?limit=0', 'limit', 'Choose at least 1 row per page'],
      ['/api/games?offset=-1', 'offset', 'Offset must be a whole number from 0'],
      ['/api/claims?page=x', 'page', 'Page must be a whole number from 1'],
    ];
    for (const [url, field, message] of pages) {
      const refused = await t.request(t.adminToken, { method: 'GET', url });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json(), url).toMatchObject({ message, fieldErrors: { [field]: message } });
    }
    const list = await t.request(t.adminToken, { method: 'GET', url: '/api/transactions' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBeDefined();
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x']));
    const manyFields = await t.request(h.U1.token, {
      method: 'PUT',
      url: `/api/users/${h.U1.id}`,
      ...multipart(fields),
    });
    expect(manyFields.statusCode).toBe(413);
    const longId = await t.request(t.adminToken, { method: 'GET', url: `/api/users/${'9'.repeat(300)}` });
    expect(longId.statusCode).toBeGreaterThanOrEqual(400);
    expect(longId.statusCode).toBeLessThan(500);
  });

  it('no error leaks a stack trace or SQL, not even a real 500 from a broken database', async () => {
    const errors: [string, string | null, InjectOptions][] = [
      [
        'validation',
        t.adminToken,
        { method: 'POST', url: '/api/users', payload: { username: "x'; DROP TABLE users;--" } },
      ],
      ['conflict', t.adminToken, { method: 'DELETE', url: `/api/users/${h.A1.id}` }],
      ['not found', t.adminToken, { method: 'GET', url: '/api/sales-history/2147483647' }],
      ['bad id', t.adminToken, { method: 'GET', url: "/api/users/1'%20OR%20'1'='1" }],
      ['bad date', t.adminToken, { method: 'GET', url: '/api/transactions?from=yesterday' }],
      ['game not found', h.U1.token, { method: 'GET', url: '/api/games/2147483647' }],
      ['proof not found', null, { method: 'GET', url: "/api/verify/x'%20OR%20'1'='1" }],
      ['bad game query', h.U1.token, { method: 'GET', url: '/api/games?status=deleted' }],
      ['bad draw', h.U1.token, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 'x' } }],
    ];
    for (const [label, token, request] of errors) {
      const response = await t.request(token, request);
      expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(leaks(response.body), `${label}: ${response.body}`).toBe(false);
    }
    // A table the query needs is gone: the database error becomes the one generic 500.
    await t.database.db.execute(sql`ALTER TABLE games RENAME TO games_elsewhere`);
    try {
      const response = await t.request(t.adminToken, { method: 'GET', url: '/api/sales-history/1' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: SERVER_MESSAGES.internalError,
        code: 'INTERNAL',
        requestId: expect.any(String),
      });
      expectSecurityHeaders(response, '500');
    } finally {
      await t.database.db.execute(sql`ALTER TABLE games_elsewhere RENAME TO games`);
    }
    // The same on the public proof, which anyone may call.
    await t.database.db.execute(sql`ALTER TABLE game_rounds RENAME TO game_rounds_elsewhere`);
    try {
      const response = await t.request(null, { method: 'GET', url: `/api/verify/${game.code}` });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: SERVER_MESSAGES.internalError,
        code: 'INTERNAL',
        requestId: expect.any(String),
      });
      expectSecurityHeaders(response, 'public 500');
    } finally {
      await t.database.db.execute(sql`ALTER TABLE game_rounds_elsewhere RENAME TO game_rounds`);
    }
  });
});
