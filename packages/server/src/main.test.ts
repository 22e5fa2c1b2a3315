import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callServer, exitOf, freePort, MAIN_FILE, nodeArgs, startServer } from './test/server-process.ts';
import { TEST_DB } from './test/test-app.ts';

/**
 * The run contract (docs/product/runtime-and-security.md#run-contract), tested on the real entry
 * point in a child process:
 * first start creates and migrates the database and prints the admin password once; a restart
 * keeps the data; SIGTERM stops cleanly; a bad environment stops with a clear message; a beacon
 * that cannot be reached never stops the server: with DRAW_BEACON=required games wait to open
 * (503), with auto they open as LOT-DRAW-1.
 */
async function signin(url: string, username: string, password: string) {
  const response = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as { accessToken?: string; role?: string } };
}

/** Where the server keeps its data: a fresh PGlite directory, or a fresh PostgreSQL database. */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
const dataDir = mkdtempSync(join(tmpdir(), 'lot-main-'));

beforeAll(async () => {
  env = { DATA_DIR: dataDir };
  cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  if (TEST_DB === 'postgres') {
    const base = process.env.TEST_DATABASE_URL ?? '';
    const name = `lot_main_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    env = {
      ...env,
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'a-test-secret-that-is-long-enough-to-pass',
      TOTP_KEY: 'a-test-totp-key-that-is-long-enough-to-pass',
      SEED_KEY: 'a-test-seed-key-that-is-long-enough-to-pass',
      LOG_KEY: 'a-test-log-key-that-is-long-enough-to-pass-',
    };
    cleanup = async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }
});
afterAll(() => cleanup());

describe(`npm start (${TEST_DB})`, () => {
  let adminPassword = '';

  it('first start migrates, serves health and prints the admin password once', async () => {
    const server = await startServer({ ...env, LOG_LEVEL: 'info' });
    try {
      const health = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'main-test-health' } });
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(health.headers.get('x-request-id')).toBe('main-test-health');
      // Over a real loopback socket, the default METRICS_ALLOW lets the scraper in.
      const metrics = await fetch(`${server.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('lot_http_requests_total');
      const match = /Admin login: admin \/ (\S+)/.exec(server.output());
      expect(match).not.toBeNull();
      adminPassword = match?.[1] ?? '';
      // The embedded database's first start says which key files it made (docs/upgrading.md).
      if (!env.SEED_KEY)
        expect(server.output()).toMatch(/Created DATA_DIR\/seed-key \(.+\): it seals the games' seeds/);
      const login = await signin(server.url, 'admin', adminPassword);
      expect(login.status).toBe(200);
      expect(login.body.role).toBe('admin');
      const created = await fetch(`${server.url}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.body.accessToken}` },
        body: JSON.stringify({
          username: 'kept_user',
          password: 'secret123',
          fullName: 'Kept User',
          role: 'superagent',
        }),
      });
      expect(created.status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
    // The request's log line carries its id (written in the background, flushed by the exit).
    expect(server.output()).toMatch(/"requestId":"main-test-health".*"url":"\/api\/health"/);
  }, 60_000);

  it('a restart keeps the data and does not create another admin', async () => {
    const server = await startServer(env);
    try {
      expect(server.output()).not.toContain('Admin login');
      expect(server.output()).not.toContain('Created DATA_DIR/');
      expect((await signin(server.url, 'admin', adminPassword)).status).toBe(200);
      expect((await signin(server.url, 'kept_user', 'secret123')).status).toBe(200);
    } finally {
      server.child.kill('SIGINT');
    }
    expect(await exitOf(server.child)).toBe(0);
  }, 60_000);

  it('a SEED_KEY other than the one the database met first stops the server with a message naming it', async () => {
    // On the embedded database the first start generated the key, owner-only, beside the others.
    if (!env.SEED_KEY) expect(statSync(join(dataDir, 'seed-key')).mode & 0o777).toBe(0o600);
    // Without its jwt-secret the refused start would make one: it must not (issue 43).
    const jwtFile = join(dataDir, 'jwt-secret');
    if (!env.JWT_SECRET) renameSync(jwtFile, `${jwtFile}.kept`);
    const child = spawn(process.execPath, nodeArgs(MAIN_FILE), {
      env: { PATH: process.env.PATH ?? '', ...env, SEED_KEY: 'another-seed-key-that-is-long-enough-0123' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exitOf(child)).toBe(1);
    expect(output.trim()).toBe(
      "SEED_KEY cannot open the games' secret seeds in this database: set SEED_KEY to the key this database was used with",
    );
    expect(existsSync(jwtFile)).toBe(false);
    if (!env.JWT_SECRET) renameSync(`${jwtFile}.kept`, jwtFile);
    // The right key still starts it.
    const server = await startServer(env);
    server.child.kill('SIGTERM');
    expect(await exitOf(server.child)).toBe(0);
  });

  /** A shop with winner settings, made once by the admin on a running server: its token. */
  let shopToken = '';
  async function shop(url: string): Promise<string> {
    if (shopToken) return shopToken;
    const admin = await signin(url, 'admin', adminPassword);
    const token = admin.body.accessToken ?? '';
    const created = await callServer(url, 'POST', '/api/users', token, {
      username: 'beacon_shop',
      password: 'secret123',
      fullName: 'Beacon Shop',
      role: 'user',
    });
    expect(created.status).toBe(201);
    const setting = { name: 'First', percent: '50.00', position: 1, isActive: true, userId: null };
    expect((await callServer(url, 'POST', '/api/winners', token, setting)).status).toBe(201);
    shopToken = (await signin(url, 'beacon_shop', 'secret123')).body.accessToken ?? '';
    return shopToken;
  }
  const openBody = { startRange: 1, endRange: 20, betAmount: '1.00' };

  it('DRAW_BEACON=required with the beacon unreachable: the server starts and answers health, a game waits to open (503)', async () => {
    // Nobody listens on this port: every call to the beacon is refused at once.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const server = await startServer({ ...env, DRAW_BEACON: 'required', DRAW_BEACON_URL: nowhere });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const opened = await callServer(server.url, 'POST', '/api/games', await shop(server.url), openBody);
      expect(opened.status).toBe(503);
      expect(opened.json.message).toBe(SERVER_MESSAGES.beaconUnreachable);
      expect(server.output()).toContain('the public randomness beacon cannot be reached: no game can open');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
  }, 60_000);

  // With a beacon that answers, servers started as npm start does play LOT-DRAW-2: the race-and-crash suite.
  it('DRAW_BEACON=auto opens LOT-DRAW-1 games while the beacon is unreachable', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const server = await startServer({ ...env, DRAW_BEACON: 'auto', DRAW_BEACON_URL: nowhere });
    try {
      const token = await shop(server.url);
      const opened = await callServer(server.url, 'POST', '/api/games', token, openBody);
      expect(opened.status).toBe(201);
      expect({ protocol: opened.json.protocol, beacon: opened.json.beacon }).toEqual({
        protocol: 'LOT-DRAW-1',
        beacon: null,
      });
      expect(server.output()).toContain('new games open as LOT-DRAW-1 (server randomness only)');
      const discarded = await callServer(server.url, 'POST', `/api/games/${String(opened.json.id)}/void`, token, {
        reason: 'Beacon test',
      });
      expect(discarded.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
  }, 60_000);

  it('a bad environment stops the server with a message naming the variable', async () => {
    const child = spawn(process.execPath, nodeArgs(MAIN_FILE), {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: 'not-a-port',
        LOG_LEVEL: 'loud',
        DRAW_BEACON: 'maybe',
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exitOf(child)).toBe(1);
    expect(output).toContain('Invalid environment');
    expect(output).toContain('PORT');
    expect(output).toContain('LOG_LEVEL');
    expect(output).toContain('DRAW_BEACON: must be required, auto or off');
  });
});
