import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { queryRows } from '../../db/client.ts';
import { buildApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { keyCanaries, recoveryCodes, signinFailures, userTwoFactor } from '../../db/schema.ts';
import { checkTotpKey, KeyMismatch } from '../../lib/key-canaries.ts';
import { keepJwtSecret, resolveKeys } from '../../secrets.ts';
import { createTestApp, TEST_DB, type TestApp } from '../../test/test-app.ts';
import { MAX_FAILURES } from './auth.service.ts';

const PASSWORD = 'right-password';
const STEP_MS = 30_000;

/** The clock the app checks codes against: tests move it a step on instead of waiting 30 s. */
let now = Date.now();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
});

afterAll(async () => {
  await t.close();
});

/** The next time step: a code of it is new to the server (the window takes ± one step). */
function nextStep(): void {
  now += STEP_MS;
}

async function createUser(username: string, role = 'user'): Promise<number> {
  const response = await t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { username, password: PASSWORD, fullName: `${username} Tester`, role, parentId: null },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

function signin(username: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username, password }, headers });
}

function signinCode(challenge: string, code: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signin/code', payload: { challenge, code } });
}

/** The code an authenticator app shows now for the secret. */
function codeFor(secret: string, at = now): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
}

/** Sets two-factor sign-in up through the API, as the profile does; returns the secret and codes. */
async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await t.request(token, { method: 'POST', url: '/api/auth/two-factor/enrol' });
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json<{ secret: string }>();
  const confirmed = await t.request(token, {
    method: 'POST',
    url: '/api/auth/two-factor/confirm',
    payload: { code: codeFor(secret) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  nextStep();
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** Both steps of a sign-in with two-factor; returns the second step's answer. */
async function signinWithCode(username: string, code: string) {
  const first = await signin(username);
  expect(first.statusCode, first.body).toBe(200);
  return signinCode(first.json<{ challenge: string }>().challenge, code);
}

/** The audit rows of a user's sign-ins and sign-in settings, oldest first. */
function trailOf(userId: number) {
  return queryRows<{ action: string; actor_id: number | null; details: unknown }>(
    t.database.db,
    sql`SELECT action, actor_id, details FROM audit_log WHERE target_user_id = ${userId} AND action LIKE 'auth.%' ORDER BY id`,
  );
}

async function failures(username: string): Promise<number> {
  return (await t.database.db.select().from(signinFailures).where(eq(signinFailures.username, username))).length;
}

function getSelf(token: string, id: number) {
  return t.request(token, { method: 'GET', url: `/api/users/${id}` });
}

describe(`two-factor sign-in (${TEST_DB})`, () => {
  it('is set up from the profile: a secret and its QR code, confirmed by a first code, ten recovery codes', async () => {
    const id = await createUser('tf_enrol');
    const token = await t.login('tf_enrol', PASSWORD);
    const status = await t.request(token, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const started = await t.request(token, { method: 'POST', url: '/api/auth/two-factor/enrol' });
    expect(started.statusCode).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    const { secret, uri } = started.json<{ secret: string; uri: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(`otpauth://totp/LOT:tf_enrol?issuer=LOT&secret=${secret}&algorithm=SHA1&digits=6&period=30`);

    // Kept encrypted: the row holds neither the secret nor anything that decodes to it.
    const [row] = await t.database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, id));
    expect(row?.secret).not.toContain(secret);
    expect(row?.enabledAt).toBeNull();

    const wrong = await t.request(token, {
      method: 'POST',
      url: '/api/auth/two-factor/confirm',
      payload: { code: codeFor(secret, now - 5 * STEP_MS) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      message: MESSAGES.twoFactorCodeInvalid,
      fieldErrors: { code: MESSAGES.twoFactorCodeInvalid },
    });

    const confirmed = await t.request(token, {
      method: 'POST',
      url: '/api/auth/two-factor/confirm',
      payload: { code: codeFor(secret) },
    });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json<{ recoveryCodes: string[]; message: string }>();
    expect(codes.message).toBe(SERVER_MESSAGES.twoFactorEnabled);
    expect(codes.recoveryCodes).toHaveLength(10);
    expect(new Set(codes.recoveryCodes).size).toBe(10);
    for (const code of codes.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    // Only their hashes are kept.
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id));
    expect(stored.map((c) => c.codeHash)).not.toContain(codes.recoveryCodes[0]);

    const after = await t.request(token, { method: 'GET', url: '/api/auth/two-factor' });
    expect(after.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    // The session that set it up goes on; a second set-up is refused.
    expect((await getSelf(token, id)).statusCode).toBe(200);
    const again = await t.request(token, { method: 'POST', url: '/api/auth/two-factor/enrol' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: SERVER_MESSAGES.twoFactorAlreadyOn });
    nextStep();
  });

  it('asks for a code after the password, and signs in with it', async () => {
    const id = await createUser('tf_code');
    const { secret } = await enrol(await t.login('tf_code', PASSWORD));

    const first = await signin('tf_code');
    expect(first.statusCode).toBe(200);
    const answer = first.json<Record<string, unknown>>();
    expect(answer).toEqual({
      twoFactorRequired: true,
      challenge: expect.any(String),
      message: MESSAGES.twoFactorCodeNeeded,
    });
    // The challenge is no access token.
    expect((await getSelf(String(answer.challenge), id)).statusCode).toBe(401);

    const second = await signinCode(String(answer.challenge), codeFor(secret));
    expect(second.statusCode, second.body).toBe(200);
    const session = second.json<{ accessToken: string; id: number; message: string }>();
    expect(session).toMatchObject({ id, username: 'tf_code', role: 'user', message: 'Login successful' });
    expect(session).not.toHaveProperty('enrolTwoFactor');
    expect((await getSelf(session.accessToken, id)).statusCode).toBe(200);
    nextStep();
  });

  it('refuses a wrong code, and wrong codes count towards the sign-in throttle', async () => {
    const id = await createUser('tf_wrong');
    const { secret } = await enrol(await t.login('tf_wrong', PASSWORD));
    const first = await signin('tf_wrong');
    const { challenge } = first.json<{ challenge: string }>();
    const wrongCode = codeFor(secret, now + 10 * STEP_MS);

    const wrong = await signinCode(challenge, wrongCode);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: MESSAGES.twoFactorCodeInvalid, code: 'UNAUTHORIZED' });
    expect(wrong.json()).not.toHaveProperty('accessToken');
    expect((await trailOf(id)).at(-1)).toEqual({
      action: 'auth.signin_failed',
      actor_id: null,
      details: { username: 'tf_wrong', reason: 'wrong code' },
    });
    // A right password does not clear the count (it would let codes be guessed without end).
    expect((await signin('tf_wrong')).statusCode).toBe(200);
    expect(await failures('tf_wrong')).toBe(1);
    // A wrong password counts with them: MAX_FAILURES failures in all, then even the right code waits.
    expect((await signin('tf_wrong', 'wrong-password')).statusCode).toBe(401);
    for (let i = 2; i < MAX_FAILURES; i++) expect((await signinCode(challenge, wrongCode)).statusCode).toBe(401);
    const throttled = await signinCode(challenge, codeFor(secret));
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signin('tf_wrong')).statusCode).toBe(429);
    await t.database.db.delete(signinFailures).where(eq(signinFailures.username, 'tf_wrong'));
  });

  it('refuses a code used before (a replay), even from two requests at once', async () => {
    await createUser('tf_replay');
    const { secret } = await enrol(await t.login('tf_replay', PASSWORD));
    const code = codeFor(secret);
    expect((await signinWithCode('tf_replay', code)).statusCode).toBe(200);
    const replay = await signinWithCode('tf_replay', code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ message: MESSAGES.twoFactorCodeInvalid });
    // The code of the step before is older than the one taken: refused too.
    expect((await signinWithCode('tf_replay', codeFor(secret, now - STEP_MS))).statusCode).toBe(401);

    nextStep();
    const fresh = codeFor(secret);
    const challenges = await Promise.all([signin('tf_replay'), signin('tf_replay')]);
    const answers = await Promise.all(
      challenges.map((c) => signinCode(c.json<{ challenge: string }>().challenge, fresh)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    nextStep();
  });

  it('takes each recovery code once', async () => {
    await createUser('tf_recovery');
    const { recoveryCodes: codes } = await enrol(await t.login('tf_recovery', PASSWORD));
    const [code = '', other = ''] = codes;
    const first = await signinWithCode('tf_recovery', code);
    expect(first.statusCode, first.body).toBe(200);
    const again = await signinWithCode('tf_recovery', code);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ message: MESSAGES.twoFactorCodeInvalid });
    // Typed in capitals without dashes, another one is taken.
    const typed = await signinWithCode('tf_recovery', other.replace(/-/g, ' ').toUpperCase());
    expect(typed.statusCode, typed.body).toBe(200);
    const token = typed.json<{ accessToken: string }>().accessToken;
    const status = await t.request(token, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json()).toMatchObject({ recoveryCodesLeft: 8 });
    // Two requests with one unused code at once: one sign-in.
    const third = codes[2] ?? '';
    const challenges = await Promise.all([signin('tf_recovery'), signin('tf_recovery')]);
    const answers = await Promise.all(
      challenges.map((c) => signinCode(c.json<{ challenge: string }>().challenge, third)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
  });

  it('ends the other sessions when it is turned on or off, and takes a code to turn it off', async () => {
    const id = await createUser('tf_toggle');
    const elsewhere = await t.login('tf_toggle', PASSWORD);
    const here = await t.login('tf_toggle', PASSWORD);
    const { secret } = await enrol(here);
    expect((await getSelf(elsewhere, id)).statusCode).toBe(401);
    expect((await getSelf(here, id)).statusCode).toBe(200);

    const other = (await signinWithCode('tf_toggle', codeFor(secret))).json<{ accessToken: string }>().accessToken;
    nextStep();
    const wrong = await t.request(here, {
      method: 'POST',
      url: '/api/auth/two-factor/disable',
      payload: { code: '000000' === codeFor(secret) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fieldErrors: { code: MESSAGES.twoFactorCodeInvalid } });
    const off = await t.request(here, {
      method: 'POST',
      url: '/api/auth/two-factor/disable',
      payload: { code: codeFor(secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ message: MESSAGES.twoFactorDisabled });
    expect((await getSelf(other, id)).statusCode).toBe(401);
    expect((await getSelf(here, id)).statusCode).toBe(200);
    // The password alone signs in again.
    const plain = await signin('tf_toggle');
    expect(plain.json()).toHaveProperty('accessToken');
    const status = await t.request(here, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    // The audit trail (decision 029) has each step, the one with a code marked so.
    expect(await trailOf(id)).toEqual([
      { action: 'auth.signin', actor_id: id, details: {} },
      { action: 'auth.signin', actor_id: id, details: {} },
      { action: 'auth.2fa_enrolled', actor_id: id, details: {} },
      { action: 'auth.signin', actor_id: id, details: { twoFactor: true } },
      { action: 'auth.2fa_disabled', actor_id: id, details: {} },
      { action: 'auth.signin', actor_id: id, details: {} },
    ]);
  });

  it('ends a challenge when the password changes before the code is given', async () => {
    await createUser('tf_stale');
    const { secret } = await enrol(await t.login('tf_stale', PASSWORD));
    const { challenge } = (await signin('tf_stale')).json<{ challenge: string }>();
    const token = (
      await signinCode((await signin('tf_stale')).json<{ challenge: string }>().challenge, codeFor(secret))
    ).json<{ accessToken: string }>().accessToken;
    nextStep();
    const changed = await t.request(token, {
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: PASSWORD, newPassword: 'another-password' },
    });
    expect(changed.statusCode).toBe(200);
    const stale = await signinCode(challenge, codeFor(secret));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ message: MESSAGES.twoFactorChallengeExpired });
    expect((await signinCode('not-a-challenge', codeFor(secret))).statusCode).toBe(401);
  });
});

describe(`a role that requires two-factor sign-in (${TEST_DB})`, () => {
  it('is the admin’s setting', async () => {
    await createUser('tf_agentless', 'superagent');
    const token = await t.login('tf_agentless', PASSWORD);
    const put = await t.request(token, {
      method: 'PUT',
      url: '/api/admin/two-factor-policy',
      payload: { roles: ['superagent'] },
    });
    expect(put.statusCode).toBe(403);
    const bad = await t.request(t.adminToken, {
      method: 'PUT',
      url: '/api/admin/two-factor-policy',
      payload: { roles: ['boss'] },
    });
    expect(bad.statusCode).toBe(400);
    const get = await t.request(t.adminToken, { method: 'GET', url: '/api/admin/two-factor-policy' });
    expect(get.json()).toEqual({ roles: [] });
    // Saved (and audited, decision 029), then put back.
    for (const roles of [['superagent', 'admin'], []]) {
      const saved = await t.request(t.adminToken, {
        method: 'PUT',
        url: '/api/admin/two-factor-policy',
        payload: { roles },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const changes = await queryRows<{ details: unknown }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'auth.2fa_policy_changed' ORDER BY id`,
    );
    expect(changes.map((row) => row.details)).toEqual([
      { changes: { roles: { from: [], to: ['admin', 'superagent'] } } },
      { changes: { roles: { from: ['admin', 'superagent'], to: [] } } },
    ]);
  });

  it('sends a user of that role without it to set it up, and lets nothing else through until then', async () => {
    const id = await createUser('tf_super', 'superagent');
    const saved = await t.request(t.adminToken, {
      method: 'PUT',
      url: '/api/admin/two-factor-policy',
      payload: { roles: ['superagent', 'admin', 'superagent'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ roles: ['admin', 'superagent'], message: MESSAGES.twoFactorPolicySaved });
    try {
      const answer = await signin('tf_super');
      expect(answer.statusCode).toBe(200);
      const session = answer.json<{ accessToken: string; enrolTwoFactor?: boolean }>();
      expect(session.enrolTwoFactor).toBe(true);
      const token = session.accessToken;

      for (const [method, url] of [
        ['GET', `/api/users/${id}`],
        ['GET', '/api/users'],
        ['GET', '/api/balance'],
        ['GET', '/api/auth/sessions'],
      ] as const) {
        const refused = await t.request(token, { method, url });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json(), url).toMatchObject({
          code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
          message: MESSAGES.twoFactorEnrolmentRequired,
        });
      }
      const status = await t.request(token, { method: 'GET', url: '/api/auth/two-factor' });
      expect(status.json()).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });

      const { secret } = await enrol(token);
      // The same session now reaches everything its role may.
      expect((await getSelf(token, id)).statusCode).toBe(200);
      // And it cannot be turned off while the role requires it.
      const off = await t.request(token, {
        method: 'POST',
        url: '/api/auth/two-factor/disable',
        payload: { code: codeFor(secret) },
      });
      expect(off.statusCode).toBe(409);
      expect(off.json()).toMatchObject({ message: SERVER_MESSAGES.twoFactorRequiredByRole });
      // The next sign-in asks for a code and is not limited.
      const next = await signinWithCode('tf_super', codeFor(secret));
      expect(next.json()).not.toHaveProperty('enrolTwoFactor');
      // Other roles are not asked.
      await createUser('tf_plain');
      expect((await signin('tf_plain')).json()).not.toHaveProperty('enrolTwoFactor');
      nextStep();
    } finally {
      await t.request(t.adminToken, { method: 'PUT', url: '/api/admin/two-factor-policy', payload: { roles: [] } });
    }
  });
});

describe(`TOTP_KEY against the database's canary (${TEST_DB}, decision 042)`, () => {
  const other = 'another-totp-key-that-is-long-enough-0123';
  const start = (totpKey: string) =>
    buildApp({
      database: t.database,
      jwtSecret: t.jwtSecret,
      totpKey,
      seedKey: t.seedKey,
      logKey: t.logKey,
      logLevel: 'silent',
      serveWeb: false,
      clock: () => now,
    });
  const canaries = () => t.database.db.select().from(keyCanaries).where(eq(keyCanaries.name, 'totp-key'));

  it('a start with another key is refused naming TOTP_KEY, before anything answers; the right key starts and its codes work', async () => {
    await createUser('canary_user');
    const { secret } = await enrol(await t.login('canary_user', PASSWORD));
    const [canary] = await canaries();
    expect(canary?.sealed).toMatch(/^v1\./);
    const refused: unknown = await start(other).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(KeyMismatch);
    expect((refused as Error).message).toBe(
      'TOTP_KEY cannot open the two-factor secrets in this database: set TOTP_KEY to the key this database was used with',
    );
    const app = await start(t.totpKey);
    await app.close();
    expect((await signinWithCode('canary_user', codeFor(secret))).statusCode).toBe(200);
    nextStep();
  });

  it('a database from before the canary: a wrong key is refused and blesses nothing, the right key writes it', async () => {
    await t.database.db.delete(keyCanaries);
    await expect(checkTotpKey(t.database.db, other)).rejects.toThrow(KeyMismatch);
    expect(await canaries()).toHaveLength(0);
    await checkTotpKey(t.database.db, t.totpKey);
    expect(await canaries()).toHaveLength(1);
    await expect(checkTotpKey(t.database.db, other)).rejects.toThrow(KeyMismatch);
  });

  it('a key file missing from DATA_DIR is never made anew while the database holds what it sealed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lot-keys-'));
    try {
      const refused: unknown = await resolveKeys(t.database.db, { dataDir }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message.split('\n')).toEqual([
        `DATA_DIR/totp-key (${join(dataDir, 'totp-key')}) is missing, but this database holds the two-factor secrets sealed with it: restore the totp-key file that was backed up with it`,
        `DATA_DIR/seed-key (${join(dataDir, 'seed-key')}) is missing, but this database holds the games' secret seeds sealed with it: restore the seed-key file that was backed up with it`,
        `DATA_DIR/log-key (${join(dataDir, 'log-key')}) is missing, but this database holds a game log signed with it: restore the log-key file that was backed up with it`,
      ]);
      expect(readdirSync(dataDir)).toEqual([]);
      // From the environment (PostgreSQL's way), or restored files: taken as they are.
      const keys = await resolveKeys(t.database.db, {
        dataDir,
        totpKey: t.totpKey,
        seedKey: t.seedKey,
        logKey: t.logKey,
      });
      expect(keys).toMatchObject({ totpKey: t.totpKey, seedKey: t.seedKey, logKey: t.logKey, jwtSecretCreated: true });
      // A new JWT secret is written only once the start has passed every key check (main.ts).
      expect(readdirSync(dataDir)).toEqual([]);
      keepJwtSecret(dataDir, keys.jwtSecret);
      expect(readdirSync(dataDir)).toEqual(['jwt-secret']);
      expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
