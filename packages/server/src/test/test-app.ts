import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { ensureAdmin } from '../cli/seed.ts';
import type { DrawBeaconMode } from '../lib/draw-beacon.ts';
import { openPgliteFromTemplate, postgresTemplate } from './template-database.ts';
import { startTestBeacon, type TestBeacon } from './test-beacon.ts';

export const ADMIN = { username: 'admin', password: 'admin-password' };

/** Which database the API suites run on: the vitest project sets TEST_DB. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh PostgreSQL database per test app, dropped again on close: empty, or with `migrated` a
 * copy of one the server has migrated (template-database.ts).
 */
export async function freshPostgres(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `lot_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? ` TEMPLATE ${await postgresTemplate(base)}` : '';
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The skew `withClockSkew` sets: in the test, for the requests it sends; in the app, for the
 * request that carried it (`CLOCK_SKEW_HEADER`), read by the app's clock.
 */
const requestSkew = new AsyncLocalStorage<number>();
const CLOCK_SKEW_HEADER = 'x-test-clock-skew';

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  /** PostgreSQL: the URL of the test's own database (the restore drill runs pg_dump on it). */
  databaseUrl?: string;
  /** app.inject with a bearer token. */
  request: (token: string | null, options: InjectOptions) => Promise<LightMyRequestResponse>;
  /** Signs in and returns the access token (asserting success). */
  login: (username: string, password: string) => Promise<string>;
  adminToken: string;
  /** The HS256 key the app signs with, for suites that forge, expire or tamper with tokens. */
  jwtSecret: string;
  /** The key two-factor secrets are encrypted with (a second app on the database needs it). */
  totpKey: string;
  /** The local test beacon LOT-DRAW-2 games wait for (undefined with beacon 'off'). */
  beacon: TestBeacon | undefined;
  /**
   * The beacon's clock (ms), and the app's while no skew is set: moved forward by `advanceClock`,
   * never back.
   */
  now: () => number;
  advanceClock: (ms: number) => void;
  /**
   * From now on the app's clock (its context's, `ctx.clock`) runs `ms` off the beacon's: negative
   * is behind, as a server whose time was set back; 0 sets it right again.
   */
  skewClock: (ms: number) => void;
  /**
   * Runs `requests` with the app's clock `ms` further off for the requests they send through
   * `t.request`, and for those alone: every other request, and the beacon, keep their time. Each
   * such request carries its skew in a header that only a test app reads (an onRequest hook
   * createTestApp adds), which runs the request's context on the skewed clock.
   */
  withClockSkew: <T>(ms: number, requests: () => Promise<T>) => Promise<T>;
  /** The key the games' seeds are sealed with (a second app on the database needs it). */
  seedKey: string;
  /** The key the game log is signed with (decision 081; a second app on the database needs it). */
  logKey: string;
  close: () => Promise<void>;
};

export type TestAppOptions = Pick<AppOptions, 'metricsAllow' | 'trustProxy' | 'clock' | 'publicUrl' | 'witnesses'> & {
  beacon?: DrawBeaconMode;
  /**
   * The app's and the beacon's clock stands still but for `advanceClock`: a test that must stay
   * before a beacon round for as long as it likes (a round is due 0 to 3 s after a freeze, and a
   * clock that runs with the machine's may pass it between two requests).
   */
  stoppedClock?: boolean;
  /** How often the app's beacon heartbeat asks the relays (default 30 s): tests of going down shorten it. */
  beaconHeartbeatMs?: number;
};

/**
 * The real app (buildApp) on a fresh database with the admin account, as main.ts starts it;
 * `options` sets what the environment would (METRICS_ALLOW, TRUST_PROXY). Games are LOT-DRAW-2
 * against a local test beacon (its own key, drand's API and scheme) on the app's clock, which
 * tests move forward instead of waiting for a round; `beacon: 'off'` plays LOT-DRAW-1.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let offset = 0;
  let skew = 0;
  const startedAt = Date.now();
  const beaconClock = options.clock ?? (options.stoppedClock ? () => startedAt + offset : () => Date.now() + offset);
  const clock = () => beaconClock() + skew + (requestSkew.getStore() ?? 0);
  const mode = options.beacon ?? 'required';
  const beacon = mode === 'off' ? undefined : await startTestBeacon({ clock: beaconClock, period: 3 });
  let database: Database;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  if (TEST_DB === 'postgres') {
    const fresh = await freshPostgres({ migrated: true });
    database = await openDatabase({ kind: 'postgres', url: fresh.url, poolSize: 20 });
    drop = fresh.drop;
    databaseUrl = fresh.url;
  } else {
    database = await openPgliteFromTemplate();
  }
  const jwtSecret = randomBytes(32).toString('hex');
  const totpKey = randomBytes(32).toString('hex');
  const seedKey = randomBytes(32).toString('hex');
  const logKey = randomBytes(32).toString('hex');
  const app = await buildApp({
    database,
    jwtSecret,
    totpKey,
    seedKey,
    logKey,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    serveWeb: false,
    metricsAllow: options.metricsAllow,
    trustProxy: options.trustProxy,
    publicUrl: options.publicUrl,
    witnesses: options.witnesses,
    clock,
    beacon: beacon
      ? { mode, urls: [beacon.url], chainHash: beacon.chain.chainHash, heartbeatMs: options.beaconHeartbeatMs }
      : undefined,
  });
  // A request sent inside withClockSkew runs with its skew (the app reads this header in tests only).
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers[CLOCK_SKEW_HEADER];
    if (typeof header !== 'string') return done();
    requestSkew.run(Number(header), done);
  });
  await app.ready();
  await ensureAdmin(database.db, ADMIN);

  const request = (token: string | null, options: InjectOptions) => {
    const skewed = requestSkew.getStore();
    return app.inject({
      ...options,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(skewed === undefined ? {} : { [CLOCK_SKEW_HEADER]: String(skewed) }),
        ...options.headers,
      },
    });
  };

  const login = async (username: string, password: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username, password } });
    if (response.statusCode !== 200)
      throw new Error(`login ${username} failed: ${response.statusCode} ${response.body}`);
    return response.json<{ accessToken: string }>().accessToken;
  };

  return {
    app,
    database,
    databaseUrl,
    request,
    login,
    adminToken: await login(ADMIN.username, ADMIN.password),
    jwtSecret,
    totpKey,
    beacon,
    now: beaconClock,
    advanceClock: (ms) => {
      offset += Math.max(0, ms);
    },
    skewClock: (ms) => {
      skew = ms;
    },
    withClockSkew: (ms, requests) => requestSkew.run((requestSkew.getStore() ?? 0) + ms, requests),
    seedKey,
    logKey,
    close: async () => {
      await app.close();
      await beacon?.close();
      await database.close();
      await drop();
    },
  };
}

/**
 * Another API process on the test app's database, with its keys, on its clock: `options` set what
 * its environment would (the beacon's mode and relays, another clock). Ready; the caller closes it.
 */
export async function anotherApp(t: TestApp, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    database: t.database,
    jwtSecret: t.jwtSecret,
    totpKey: t.totpKey,
    seedKey: t.seedKey,
    logKey: t.logKey,
    logLevel: 'silent',
    serveWeb: false,
    clock: t.now,
    ...options,
  });
  await app.ready();
  return app;
}

/**
 * A second app on the test app's database that also serves a built web app: an index.html and the
 * given files (path → content) in a temporary folder, removed with the app after `use`. `options`
 * sets what the environment would (PUBLIC_URL, TRUST_PROXY).
 */
export async function withWebApp(
  t: TestApp,
  files: Record<string, string>,
  use: (web: FastifyInstance) => Promise<void>,
  options: Pick<AppOptions, 'publicUrl' | 'trustProxy'> = {},
): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lot-web-'));
  for (const [path, content] of Object.entries({ 'index.html': '<!doctype html><title>LOT</title>', ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const web = await buildApp({
    database: t.database,
    totpKey: t.totpKey,
    seedKey: t.seedKey,
    logKey: t.logKey,
    jwtSecret: t.jwtSecret,
    logLevel: 'silent',
    webRoot: root,
    ...options,
  });
  try {
    await use(web);
  } finally {
    await web.close();
    rmSync(root, { recursive: true, force: true });
  }
}
