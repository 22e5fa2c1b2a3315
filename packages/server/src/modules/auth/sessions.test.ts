import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { sessions } from '../../db/schema.ts';
import { createTestApp, TEST_DB, type TestApp } from '../../test/test-app.ts';

const PASSWORD = 'right-password';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function createUser(username: string): Promise<number> {
  const response = await t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { username, password: PASSWORD, fullName: `${username} Tester`, role: 'user', parentId: null },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

async function signin(username: string, userAgent: string, password = PASSWORD): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { username, password },
    headers: { 'user-agent': userAgent },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}

function sessionIdOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
  return payload.sid;
}

type Listed = { id: string; device: string; address: string; createdAt: string; lastUsedAt: string; current: boolean };

async function list(token: string): Promise<Listed[]> {
  const response = await t.request(token, { method: 'GET', url: '/api/auth/sessions' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Listed[]>();
}

function getSelf(token: string, id: number) {
  return t.request(token, { method: 'GET', url: `/api/users/${id}` });
}

describe(`sessions (${TEST_DB})`, () => {
  it("lists the caller's active sessions: device, address, last use, this one marked", async () => {
    await createUser('se_list');
    const laptop = await signin('se_list', CHROME_LINUX);
    const phone = await signin('se_list', SAFARI_IPHONE);
    const listed = await list(laptop);
    expect(listed).toHaveLength(2);
    // This one first, though the other was used last.
    expect(listed.map((s) => s.current)).toEqual([true, false]);
    const byId = new Map(listed.map((s) => [s.id, s]));
    expect(byId.get(sessionIdOf(laptop))).toMatchObject({
      device: 'Chrome on Linux',
      address: '127.0.0.1',
      current: true,
      lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(byId.get(sessionIdOf(phone))).toMatchObject({ device: 'Safari on iOS', current: false });
    // Another user's sessions are not listed.
    expect((await list(t.adminToken)).map((s) => s.id)).not.toContain(sessionIdOf(laptop));
  });

  it('ends one session: its token is refused, the others go on', async () => {
    const id = await createUser('se_end');
    const a = await signin('se_end', CHROME_LINUX);
    const b = await signin('se_end', SAFARI_IPHONE);
    const ended = await t.request(a, { method: 'DELETE', url: `/api/auth/sessions/${sessionIdOf(b)}` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ message: MESSAGES.sessionEnded });
    const refused = await getSelf(b, id);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ message: MESSAGES.sessionExpired });
    expect((await getSelf(a, id)).statusCode).toBe(200);
    expect((await list(a)).map((s) => s.id)).toEqual([sessionIdOf(a)]);
    // Ended already, someone else's, or none at all: 404 alike.
    expect((await t.request(a, { method: 'DELETE', url: `/api/auth/sessions/${sessionIdOf(b)}` })).statusCode).toBe(
      404,
    );
    const admins = sessionIdOf(t.adminToken);
    expect((await t.request(a, { method: 'DELETE', url: `/api/auth/sessions/${admins}` })).statusCode).toBe(404);
    expect((await t.request(a, { method: 'DELETE', url: '/api/auth/sessions/not-a-uuid' })).statusCode).toBe(400);
    expect((await list(t.adminToken)).map((s) => s.id)).toContain(admins);
  });

  it('ends all the others at once, and signs out', async () => {
    const id = await createUser('se_all');
    const others = [await signin('se_all', CHROME_LINUX), await signin('se_all', SAFARI_IPHONE)];
    const here = await signin('se_all', CHROME_LINUX);
    const ended = await t.request(here, { method: 'POST', url: '/api/auth/sessions/end-others' });
    expect(ended.json()).toEqual({ message: MESSAGES.otherSessionsEnded });
    for (const token of others) expect((await getSelf(token, id)).statusCode).toBe(401);
    expect((await list(here)).map((s) => s.id)).toEqual([sessionIdOf(here)]);

    const out = await t.request(here, { method: 'POST', url: '/api/auth/signout' });
    expect(out.json()).toEqual({ message: SERVER_MESSAGES.signedOut });
    expect((await getSelf(here, id)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions; the one that changed it goes on', async () => {
    await createUser('se_password');
    const other = await signin('se_password', SAFARI_IPHONE);
    const here = await signin('se_password', CHROME_LINUX);
    const changed = await t.request(here, {
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: PASSWORD, newPassword: 'new-password' },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json<{ accessToken: string }>().accessToken;
    expect(sessionIdOf(fresh)).toBe(sessionIdOf(here));
    expect((await list(fresh)).map((s) => s.id)).toEqual([sessionIdOf(here)]);
    expect((await t.request(other, { method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
  });

  it('notes the last use at most once a minute, not on every request', async () => {
    const id = await createUser('se_touch');
    const token = await signin('se_touch', CHROME_LINUX);
    const sid = sessionIdOf(token);
    await t.database.db
      .update(sessions)
      .set({ lastUsedAt: sql`now() - interval '5 minutes'` })
      .where(eq(sessions.id, sid));
    const lastUsed = async () =>
      (await t.database.db.select().from(sessions).where(eq(sessions.id, sid)))[0]?.lastUsedAt.getTime() ?? 0;
    const before = await lastUsed();
    expect((await getSelf(token, id)).statusCode).toBe(200);
    const touched = await lastUsed();
    expect(touched - before).toBeGreaterThan(4 * 60_000);
    for (let i = 0; i < 3; i++) expect((await getSelf(token, id)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(touched);
  });
});
