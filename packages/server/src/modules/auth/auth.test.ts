import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { usernameKey } from '@lot/domain/username-key';
import { buildApp } from '../../app.ts';
import { queryRows } from '../../db/client.ts';
import { signinFailures } from '../../db/schema.ts';
import { ADMIN, createTestApp, type TestApp } from '../../test/test-app.ts';

const PASSWORD = 'right-password';
const LOCAL = '127.0.0.1';

/** The body of every refused token (docs/product/validation-and-errors.md#error-body). */
const SESSION_EXPIRED = { message: MESSAGES.sessionExpired, code: 'UNAUTHORIZED', requestId: expect.any(String) };
const INVALID_CREDENTIALS = {
  message: SERVER_MESSAGES.invalidCredentials,
  code: 'UNAUTHORIZED',
  requestId: expect.any(String),
};

/** A second API process on the same database, with a secret the tests know so they can forge tokens. */
const SECOND_SECRET = 'a-secret-the-tests-know-0123456789abcdef';

let t: TestApp;
let second: FastifyInstance;
let samId: number;

beforeAll(async () => {
  t = await createTestApp();
  second = await buildApp({
    database: t.database,
    totpKey: t.totpKey,
    seedKey: t.seedKey,
    logKey: t.logKey,
    jwtSecret: SECOND_SECRET,
    logLevel: 'silent',
    serveWeb: false,
  });
  await second.ready();
  samId = await createUser('sam', { role: 'superagent' });
});

afterAll(async () => {
  await second.close();
  await t.close();
});

async function createUser(username: string, fields: Record<string, unknown> = {}): Promise<number> {
  const response = await t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { username, password: PASSWORD, fullName: `${username} Tester`, role: 'user', parentId: null, ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

function signin(payload: InjectOptions['payload'], options: InjectOptions = {}, app: FastifyInstance = t.app) {
  return app.inject({ method: 'POST', url: '/api/auth/signin', payload, ...options });
}

function getUser(token: string | null, id: number, app: FastifyInstance = t.app) {
  return app.inject({
    method: 'GET',
    url: `/api/users/${id}`,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

function changePassword(token: string, payload: Record<string, unknown>) {
  return t.request(token, { method: 'POST', url: '/api/auth/change-password', payload });
}

/** Signs a JWT by hand, so a test can choose the algorithm, secret and claims freely. */
function forgeToken(header: { alg: string }, payload: Record<string, unknown>, secret = SECOND_SECRET): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ typ: 'JWT', ...header })}.${encode(payload)}`;
  const hashes: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
  const hash = hashes[header.alg];
  const signature = hash ? createHmac(hash, secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

async function failureCount(username: string, address = LOCAL): Promise<number> {
  const [row] = await t.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(signinFailures)
    .where(and(eq(signinFailures.username, username), eq(signinFailures.address, address)));
  return row?.count ?? 0;
}

async function failSignins(username: string, times: number, options: InjectOptions = {}): Promise<void> {
  for (let i = 0; i < times; i++) {
    const response = await signin({ username, password: 'wrong-password' }, options);
    expect(response.statusCode).toBe(401);
  }
}

describe('sign-in', () => {
  let aliceId: number;
  beforeAll(async () => {
    aliceId = await createUser('alice', { fullName: 'Alice Archer', shopName: 'Alice Shop', parentId: samId });
  });

  it('answers the right password with exactly the session user fields and a working token', async () => {
    const response = await signin({ username: 'alice', password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).toStrictEqual({
      id: aliceId,
      username: 'alice',
      fullName: 'Alice Archer',
      shopName: 'Alice Shop',
      hasLogo: false,
      role: 'user',
      parentId: samId,
      accessToken: expect.any(String),
      message: expect.any(String),
    });

    const token = body.accessToken as string;
    const self = await getUser(token, aliceId);
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ id: aliceId, username: 'alice', role: 'user' });
  });

  it('issues HS256 tokens that expire after 12 hours and carry no personal data', async () => {
    const token = await t.login('alice', PASSWORD);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).toMatchObject({
      alg: 'HS256',
    });
    const payload = decodePayload(token);
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'sid', 'sub', 'ver']);
    expect(payload.sub).toBe(String(aliceId));
    expect(Number(payload.exp) - Number(payload.iat)).toBe(12 * 60 * 60);
  });

  it('matches the username case-insensitively and ignores surrounding spaces', async () => {
    for (const username of ['ALICE', 'Alice', '  alice  ']) {
      const response = await signin({ username, password: PASSWORD });
      expect(response.statusCode, username).toBe(200);
      expect(response.json()).toMatchObject({ id: aliceId, username: 'alice' });
    }
  });

  it('matches the username as people read it: the dotted capital I, fullwidth letters, invisible characters (decision 047)', async () => {
    for (const username of ['ALİCE', 'al\u0130ce', 'ａｌｉｃｅ', 'ＡＬＩＣＥ', 'ali\u0307ce', 'al\u200Bice']) {
      const response = await signin({ username, password: PASSWORD });
      expect(response.statusCode, username).toBe(200);
      expect(response.json()).toMatchObject({ id: aliceId, username: 'alice' });
    }
  });

  it('refuses a new user whose name reads as a live one, with the duplicate-username error', async () => {
    for (const username of ['ALICE', 'ａｌｉｃｅ']) {
      const response = await t.request(t.adminToken, {
        method: 'POST',
        url: '/api/users',
        payload: { username, password: PASSWORD, fullName: 'Alice Again', role: 'user', parentId: null },
      });
      expect(response.statusCode, username).toBe(409);
      expect(response.json()).toMatchObject({
        message: SERVER_MESSAGES.usernameInUse,
        fieldErrors: { username: SERVER_MESSAGES.usernameInUse },
      });
    }
  });

  it('keeps the key in SQL the same as in @lot/domain (the unique index and the lookups agree)', async () => {
    const names = ['ALİCE', 'ａｌｉｃｅ', 'ali\u0307ce', 'al\u200Bice\u00AD', 'ΟΔΥΣΣΕΥΣ', 'e\u0301mile', '\uFB01nance'];
    for (const name of names) {
      const [row] = await queryRows<{ key: string }>(t.database.db, sql`SELECT lot_username_key(${name}) AS key`);
      expect(row?.key, name).toBe(usernameKey(name));
    }
  });

  it('refuses a wrong password and an unknown user alike, with 401', async () => {
    const wrong = await signin({ username: 'alice', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toStrictEqual(INVALID_CREDENTIALS);

    // Passwords, unlike usernames, are case-sensitive.
    const wrongCase = await signin({ username: 'alice', password: PASSWORD.toUpperCase() });
    expect(wrongCase.statusCode).toBe(401);
    expect(wrongCase.json()).toStrictEqual(INVALID_CREDENTIALS);

    const unknown = await signin({ username: 'nobody_here', password: PASSWORD });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toStrictEqual(INVALID_CREDENTIALS);
    expect(unknown.headers['retry-after']).toBeUndefined();
  });
});

describe('sign-in input', () => {
  it('requires a username and a password, with the documented messages per field', async () => {
    const noUsername = await signin({ password: PASSWORD });
    expect(noUsername.statusCode).toBe(400);
    expect(noUsername.json()).toStrictEqual({
      message: MESSAGES.usernameRequired,
      code: 'VALIDATION_ERROR',
      fieldErrors: { username: MESSAGES.usernameRequired },
      requestId: expect.any(String),
    });

    const noPassword = await signin({ username: 'admin' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toStrictEqual({
      message: MESSAGES.passwordRequired,
      code: 'VALIDATION_ERROR',
      fieldErrors: { password: MESSAGES.passwordRequired },
      requestId: expect.any(String),
    });

    const blank = await signin({ username: '   ', password: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fieldErrors: { username: MESSAGES.usernameRequired, password: MESSAGES.passwordRequired },
      requestId: expect.any(String),
    });

    const wrongTypes = await signin({ username: 42, password: null });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json()).toMatchObject({
      fieldErrors: { username: MESSAGES.usernameRequired, password: MESSAGES.passwordRequired },
    });
  });

  it('refuses unknown extra fields', async () => {
    const response = await signin({ ...ADMIN, role: 'admin' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toStrictEqual({
      message: "Field 'role' is not allowed",
      code: 'VALIDATION_ERROR',
      fieldErrors: { role: "Field 'role' is not allowed" },
      requestId: expect.any(String),
    });
  });

  it('answers malformed or missing bodies with 400, never 500', async () => {
    const json = { 'content-type': 'application/json' };
    const bodies: InjectOptions[] = [
      { payload: '{"username": "admin", "password":', headers: json },
      { payload: '', headers: json },
      { payload: 'null', headers: json },
      { payload: '["admin", "admin-password"]', headers: json },
      { payload: 'username=admin&password=admin-password', headers: { 'content-type': 'text/plain' } },
      {},
    ];
    for (const options of bodies) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/signin', ...options });
      expect(response.statusCode, String(options.payload)).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    const invalidJson = await signin('{"username":', { headers: json });
    expect(invalidJson.json()).toStrictEqual({
      message: 'Request body must be valid JSON',
      code: 'BAD_REQUEST',
      requestId: expect.any(String),
    });
  });
});

describe('inactive users', () => {
  it('are refused at sign-in with 403 and lose their existing tokens', async () => {
    const id = await createUser('ivan');
    const token = await t.login('ivan', PASSWORD);
    expect((await getUser(token, id)).statusCode).toBe(200);

    const deactivate = await t.request(t.adminToken, {
      method: 'PUT',
      url: `/api/users/${id}`,
      payload: { status: 'inactive' },
    });
    expect(deactivate.statusCode).toBe(200);

    const refused = await signin({ username: 'ivan', password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toStrictEqual({
      message: SERVER_MESSAGES.accountInactive,
      code: 'FORBIDDEN',
      requestId: expect.any(String),
    });

    // A wrong password says nothing about the account's state.
    const wrong = await signin({ username: 'ivan', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toStrictEqual(INVALID_CREDENTIALS);

    const old = await getUser(token, id);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toStrictEqual(SESSION_EXPIRED);

    // Reactivation lets the user sign in again but does not revive the old token.
    const reactivate = await t.request(t.adminToken, {
      method: 'PUT',
      url: `/api/users/${id}`,
      payload: { status: 'active' },
    });
    expect(reactivate.statusCode).toBe(200);
    const fresh = await t.login('ivan', PASSWORD);
    expect((await getUser(fresh, id)).statusCode).toBe(200);
    expect((await getUser(token, id)).statusCode).toBe(401);
  });
});

describe('sign-in throttling', () => {
  it('refuses the 6th attempt after 5 failures, even with the right password, with Retry-After', async () => {
    const id = await createUser('tom');
    await failSignins('tom', 5);

    const throttled = await signin({ username: 'tom', password: PASSWORD });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toStrictEqual({
      message: SERVER_MESSAGES.tooManyAttempts,
      code: 'RATE_LIMITED',
      requestId: expect.any(String),
    });
    const retryAfter = throttled.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(900);

    // Other spellings of the same name (as people read it, decision 047), and a forged
    // X-Forwarded-For, are the same caller.
    for (const username of ['TOM', ' Tom ', 'ｔｏｍ', 'to\u200Bm']) {
      expect((await signin({ username, password: PASSWORD })).statusCode, username).toBe(429);
    }
    const forwarded = await signin(
      { username: 'tom', password: PASSWORD },
      { headers: { 'x-forwarded-for': '10.9.9.9' } },
    );
    expect(forwarded.statusCode).toBe(429);

    // The count lives in the database: another API process on it refuses too, and a
    // throttled attempt records nothing more (it does no hashing either).
    expect((await signin({ username: 'tom', password: PASSWORD }, {}, second)).statusCode).toBe(429);
    expect(await failureCount('tom')).toBe(5);

    // Per username and address: tom elsewhere, and others here, are not affected.
    const elsewhere = await signin({ username: 'tom', password: PASSWORD }, { remoteAddress: '10.1.2.3' });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json()).toMatchObject({ id });
    await createUser('tina');
    expect((await signin({ username: 'tina', password: PASSWORD })).statusCode).toBe(200);
  });

  it('counts attempts within 15 minutes and tells how long is left', async () => {
    // tom is still throttled from the previous test: age his failures.
    const age = (minutes: number) =>
      t.database.db
        .update(signinFailures)
        .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
        .where(eq(signinFailures.username, 'tom'));
    await age(10);
    const throttled = await signin({ username: 'tom', password: PASSWORD });
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(280);
    expect(Number(throttled.headers['retry-after'])).toBeLessThanOrEqual(300);

    await age(16);
    expect((await signin({ username: 'tom', password: PASSWORD })).statusCode).toBe(200);
    expect(await failureCount('tom')).toBe(0);
  });

  it('counts failures under every spelling of a name together', async () => {
    await createUser('mina');
    for (const username of ['MİNA', 'ｍｉｎａ', 'mi\u0307na', 'MINA', 'mi\u200Bna']) {
      expect((await signin({ username, password: 'wrong-password' })).statusCode, username).toBe(401);
    }
    expect(await failureCount('mina')).toBe(5);
    expect((await signin({ username: 'mina', password: PASSWORD })).statusCode).toBe(429);
  });

  it('holds the limit against attempts sent all at once', async () => {
    await createUser('paula');
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => signin({ username: 'paula', password: 'wrong-password' })),
    );
    const statuses = responses.map((response) => response.statusCode);
    const guesses = statuses.filter((status) => status === 401).length;
    expect(guesses).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - guesses);
    expect(await failureCount('paula')).toBe(guesses);
  });

  it('throttles unknown usernames too', async () => {
    await failSignins('ghost', 5);
    const response = await signin({ username: 'ghost', password: PASSWORD });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ message: SERVER_MESSAGES.tooManyAttempts });
  });

  it('starts counting afresh after a successful sign-in', async () => {
    await createUser('tess');
    await failSignins('tess', 4);
    expect((await signin({ username: 'tess', password: PASSWORD })).statusCode).toBe(200);
    expect(await failureCount('tess')).toBe(0);
    await failSignins('tess', 4);
    expect((await signin({ username: 'tess', password: PASSWORD })).statusCode).toBe(200);
  });

  it('lifts the limit when the rows are gone: the database is the only record', async () => {
    await createUser('rita');
    await failSignins('rita', 5);
    expect((await signin({ username: 'rita', password: PASSWORD })).statusCode).toBe(429);
    await t.database.db.delete(signinFailures).where(eq(signinFailures.username, 'rita'));
    expect((await signin({ username: 'rita', password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  let id: number;
  /** The session of a real sign-in: a forged token names it, as the app's own do. */
  let sid: string;
  beforeAll(async () => {
    id = await createUser('kate');
    sid = String(decodePayload(await t.login('kate', PASSWORD)).sid);
  });

  const claims = (extra: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { sub: String(id), ver: 0, sid, iat: now, exp: now + 3600, ...extra };
  };

  async function expectRefused(token: string | null, app: FastifyInstance = t.app) {
    const response = await getUser(token, id, app);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toStrictEqual(SESSION_EXPIRED);
  }

  it('accepts a well-formed token signed with the secret (the forged ones below differ in one thing)', async () => {
    expect((await getUser(forgeToken({ alg: 'HS256' }, claims()), id, second)).statusCode).toBe(200);
  });

  it('refuses a missing, garbage or non-bearer token', async () => {
    await expectRefused(null);
    await expectRefused('garbage');
    await expectRefused('a.b.c');
    const basic = await t.app.inject({
      method: 'GET',
      url: `/api/users/${id}`,
      headers: { authorization: `Basic ${Buffer.from(`kate:${PASSWORD}`).toString('base64')}` },
    });
    expect(basic.statusCode).toBe(401);
    expect(basic.json()).toStrictEqual(SESSION_EXPIRED);
  });

  it('refuses a token signed with another secret', async () => {
    const token = await t.login('kate', PASSWORD);
    expect((await getUser(token, id)).statusCode).toBe(200);
    await expectRefused(token, second);
    await expectRefused(forgeToken({ alg: 'HS256' }, claims(), 'some-other-secret-0123456789abcdef'), second);
  });

  it('refuses an expired token', async () => {
    // The app's own signer, 13 hours ago: the same token signed now is accepted.
    const payload = { sub: String(id), ver: 0, sid };
    expect((await getUser(t.app.jwt.sign(payload), id)).statusCode).toBe(200);
    await expectRefused(t.app.jwt.sign(payload, { clockTimestamp: Date.now() - 13 * 60 * 60 * 1000 }));
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ exp: Math.floor(Date.now() / 1000) - 1 })), second);
  });

  it('refuses algorithms other than HS256, including none', async () => {
    await expectRefused(forgeToken({ alg: 'none' }, claims()), second);
    await expectRefused(forgeToken({ alg: 'HS512' }, claims()), second);
  });

  it('refuses tokens whose subject or version does not match a live user', async () => {
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ ver: 1 })), second);
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ ver: undefined })), second);
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ sub: 'kate' })), second);
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ sub: '999999' })), second);
    await expectRefused(forgeToken({ alg: 'HS256' }, claims({ sub: '99999999999' })), second);
  });

  it("refuses a deleted user's token, and the deleted user cannot sign in", async () => {
    const doraId = await createUser('dora');
    const token = await t.login('dora', PASSWORD);
    expect((await getUser(token, doraId)).statusCode).toBe(200);

    const deleted = await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${doraId}` });
    expect(deleted.statusCode).toBe(200);

    const response = await getUser(token, doraId);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toStrictEqual(SESSION_EXPIRED);
    const again = await signin({ username: 'dora', password: PASSWORD });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toStrictEqual(INVALID_CREDENTIALS);
  });
});

describe('change password', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const id = await createUser('wendy');
    const token = await t.login('wendy', PASSWORD);
    const response = await changePassword(token, { currentPassword: 'not-my-password', newPassword: 'brand-new-pw' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toStrictEqual({
      message: SERVER_MESSAGES.currentPasswordWrong,
      code: 'VALIDATION_ERROR',
      fieldErrors: { currentPassword: SERVER_MESSAGES.currentPasswordWrong },
      requestId: expect.any(String),
    });
    expect((await getUser(token, id)).statusCode).toBe(200);
    expect((await signin({ username: 'wendy', password: 'brand-new-pw' })).statusCode).toBe(401);
    expect((await signin({ username: 'wendy', password: PASSWORD })).statusCode).toBe(200);
  });

  it('validates the input with the documented messages and changes nothing', async () => {
    const id = await createUser('vera');
    const token = await t.login('vera', PASSWORD);

    const short = await changePassword(token, { currentPassword: PASSWORD, newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toStrictEqual({
      message: MESSAGES.passwordMin,
      code: 'VALIDATION_ERROR',
      fieldErrors: { newPassword: MESSAGES.passwordMin },
      requestId: expect.any(String),
    });

    const missing = await changePassword(token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      fieldErrors: { currentPassword: MESSAGES.currentPasswordRequired, newPassword: MESSAGES.passwordRequired },
    });

    const extra = await changePassword(token, { currentPassword: PASSWORD, newPassword: '123456', userId: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ fieldErrors: { userId: "Field 'userId' is not allowed" } });

    expect((await getUser(token, id)).statusCode).toBe(200);
    expect((await signin({ username: 'vera', password: '123456' })).statusCode).toBe(401);
    expect((await signin({ username: 'vera', password: PASSWORD })).statusCode).toBe(200);
  });

  it('needs a valid token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: ADMIN.password, newPassword: 'brand-new-pw' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toStrictEqual(SESSION_EXPIRED);
    expect((await signin(ADMIN)).statusCode).toBe(200);
  });

  it('changes the password, ends every older token and hands back a fresh one', async () => {
    const id = await createUser('carl');
    const token = await t.login('carl', PASSWORD);
    const otherSession = await t.login('carl', PASSWORD);

    const response = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'carls-new-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ message: MESSAGES.passwordChanged, accessToken: expect.any(String) });
    const fresh = response.json<{ accessToken: string }>().accessToken;

    for (const old of [token, otherSession]) {
      const refused = await getUser(old, id);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toStrictEqual(SESSION_EXPIRED);
    }
    expect(
      (await changePassword(token, { currentPassword: 'carls-new-password', newPassword: 'x'.repeat(8) })).statusCode,
    ).toBe(401);

    const self = await getUser(fresh, id);
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ id, username: 'carl' });

    expect((await signin({ username: 'carl', password: 'carls-new-password' })).statusCode).toBe(200);
    const oldPassword = await signin({ username: 'carl', password: PASSWORD });
    expect(oldPassword.statusCode).toBe(401);
    expect(oldPassword.json()).toStrictEqual(INVALID_CREDENTIALS);
  });

  it('counts wrong current passwords as failed sign-ins, so a stolen token cannot guess', async () => {
    await createUser('gina');
    const token = await t.login('gina', PASSWORD);
    for (let i = 0; i < 5; i++) {
      const wrong = await changePassword(token, { currentPassword: `guess-${i}`, newPassword: 'brand-new-pw' });
      expect(wrong.statusCode).toBe(400);
    }
    const throttled = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'brand-new-pw' });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({
      message: SERVER_MESSAGES.tooManyAttempts,
      code: 'RATE_LIMITED',
      requestId: expect.any(String),
    });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signin({ username: 'gina', password: PASSWORD })).statusCode).toBe(429);

    await t.database.db.delete(signinFailures).where(eq(signinFailures.username, 'gina'));
    expect((await signin({ username: 'gina', password: PASSWORD })).statusCode).toBe(200);
  });
});
