import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { callServer, exitOf, startServer, type Started } from '../test/server-process.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';

/**
 * Each API process keeps the callers it has read (decision 025). A session ended on one process (a
 * deactivation, a password change, a session ended from the profile, two-factor sign-in turned on:
 * decision 028) is refused by every other process within one second, also
 * while and after the LISTEN connection that tells them was cut. PostgreSQL only: on PGlite every
 * request reads its caller.
 */

const ADMIN_PASSWORD = 'revocation-admin-password';
const PASSWORD = 'revocation-user-password';

describe.skipIf(TEST_DB !== 'postgres')('sessions ended across processes (PostgreSQL only: skipped on PGlite)', () => {
  const servers: Started[] = [];
  let drop = async () => {};
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await Promise.race([exitOf(server.child), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await drop();
  });

  const call = callServer;

  /** Milliseconds until `base` refuses the token, polling every 20 ms; fails past 1 s. */
  async function refusedWithin(base: string, token: string, since: number): Promise<number> {
    for (;;) {
      const { status } = await call(base, 'GET', '/api/balance', token);
      const elapsed = performance.now() - since;
      if (status === 401) return elapsed;
      expect(status).toBe(200);
      if (elapsed > 1_000) throw new Error(`still accepted after ${elapsed.toFixed(0)} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a deactivation, a password change, an ended session or a two-factor change on one process ends the session on the other within one second', async () => {
    const database = await freshPostgres();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: 'a-revocation-test-secret-that-is-long-enough',
      TOTP_KEY: 'a-revocation-test-totp-key-that-is-long-enough',
      SEED_KEY: 'a-revocation-test-seed-key-that-is-long-enough',
      LOG_KEY: 'a-revocation-test-log-key-that-is-long-enough',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'error',
    };
    servers.push(await startServer(env), await startServer(env));
    const [a, b] = servers.map((s) => s.url) as [string, string];
    const signin = async (username: string, password: string) =>
      (await call(a, 'POST', '/api/auth/signin', null, { username, password })).json.accessToken as string;
    const admin = await signin('admin', ADMIN_PASSWORD);
    /** A shop signed in, its caller read (and kept) by both processes. */
    const shop = async (username: string) => {
      const created = await call(a, 'POST', '/api/users', admin, {
        username,
        password: PASSWORD,
        fullName: username,
        role: 'user',
      });
      expect(created.status).toBe(201);
      const token = await signin(username, PASSWORD);
      for (const base of [a, b, a, b]) expect((await call(base, 'GET', '/api/balance', token)).status).toBe(200);
      return { id: created.json.id as number, token };
    };

    const deactivated = await shop('rev_one');
    let since = performance.now();
    expect((await call(a, 'PUT', `/api/users/${deactivated.id}`, admin, { status: 'inactive' })).status).toBe(200);
    expect(await refusedWithin(b, deactivated.token, since)).toBeLessThan(1_000);

    const changed = await shop('rev_two');
    since = performance.now();
    const change = await call(b, 'POST', '/api/auth/change-password', changed.token, {
      currentPassword: PASSWORD,
      newPassword: 'another-password-1',
    });
    expect(change.status).toBe(200);
    expect(await refusedWithin(a, changed.token, since)).toBeLessThan(1_000);

    // A session ended from another session of the same user (the profile's list).
    const ended = await shop('rev_four');
    const kept = await signin('rev_four', PASSWORD);
    const endedSession = JSON.parse(Buffer.from(ended.token.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
    };
    since = performance.now();
    expect((await call(a, 'DELETE', `/api/auth/sessions/${endedSession.sid}`, kept)).status).toBe(200);
    expect(await refusedWithin(b, ended.token, since)).toBeLessThan(1_000);
    expect((await call(b, 'GET', '/api/balance', kept)).status).toBe(200);

    // Two-factor sign-in turned on in one session ends the others.
    const other = await shop('rev_five');
    const enrolling = await signin('rev_five', PASSWORD);
    const { secret } = (await call(a, 'POST', '/api/auth/two-factor/enrol', enrolling)).json as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    since = performance.now();
    expect((await call(a, 'POST', '/api/auth/two-factor/confirm', enrolling, { code })).status).toBe(200);
    expect(await refusedWithin(b, other.token, since)).toBeLessThan(1_000);
    expect((await call(b, 'GET', '/api/balance', enrolling)).status).toBe(200);

    // Cut every LISTEN connection: until a process hears again, it keeps no caller.
    const late = await shop('rev_three');
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
      );
    } finally {
      await db.end();
    }
    since = performance.now();
    expect((await call(a, 'PUT', `/api/users/${late.id}`, admin, { status: 'inactive' })).status).toBe(200);
    expect(await refusedWithin(b, late.token, since)).toBeLessThan(1_000);
    expect(await refusedWithin(a, late.token, since)).toBeLessThan(1_000);
    // Two server processes and a dozen sign-ins (an Argon2 hash each): past 30 s on a loaded machine.
  }, 90_000);
});
