/**
 * List calls on 1,000,000 games and 100,000 users in PostgreSQL. For each call — first page, a
 * deep page, a filtered page — the server-side latency (p95 from the Server-Timing header over
 * sequential requests) beside EXPLAIN ANALYZE of the very SQL the service runs for it (captured
 * through Drizzle's logger), so the gap is our own overhead. Beside both, the floor of any Node
 * client: the same statements sent by bare `pg` as named prepared statements from this process,
 * one after the other, which adds the round trips, the driver and the wake-ups that EXPLAIN
 * ANALYZE does not see.
 */
import pg from 'pg';
import type { Logger } from 'drizzle-orm';
import { openDatabase, type Db } from '../packages/server/src/db/client.ts';
import { statementName } from '../packages/server/src/db/prepared.ts';
import { ensureAdmin } from '../packages/server/src/cli/seed.ts';
import { SCALE_PASSWORD, seedScale } from '../packages/server/src/cli/seed-scale.ts';
import type { Caller } from '../packages/server/src/lib/caller.ts';
import { commandContext, withCaller } from '../packages/server/src/lib/context.ts';
import { DrawBeacon } from '../packages/server/src/lib/draw-beacon.ts';
import { nodeDrawCrypto } from '../packages/server/src/lib/draw-crypto.ts';
import { SeedBox } from '../packages/server/src/lib/seed-box.ts';
import { listSales, filterSales } from '../packages/server/src/modules/sales-history/sales-history.service.ts';
import { listUsers } from '../packages/server/src/modules/users/users.service.ts';
import { downline } from '../packages/server/src/modules/reports/downline.service.ts';
import { api, databaseUrl, load, percentile, startServer, TIMING, type Row } from './lib.ts';

const GAMES = Number(process.env.SCALE_GAMES ?? 1_000_000);
const USERS = Number(process.env.SCALE_USERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
export const ADMIN_PASSWORD = 'bench-admin-password';

/** A kept data set: seeded on the first run that needs it, reused after (drop its database to reseed). */
export type ScaleSize = { database: string; users: number; games: number };
/** lot_bench_scale for the 1,000,000 games, lot_bench_scale_100k for 100,000 (other SCALE_GAMES: theirs). */
const scaleSize = (games: number): ScaleSize => ({
  database: games === 1_000_000 ? 'lot_bench_scale' : `lot_bench_scale_${Math.round(games / 1000)}k`,
  users: USERS,
  games,
});
/** The data set the list and report groups run on. */
export const SCALE = scaleSize(GAMES);
/**
 * The same hierarchy with a tenth of the games: the cluster group measures the same calls on both,
 * to see how they grow with history (docs/capacity.md).
 */
export const SCALE_SMALL = scaleSize(GAMES / 10);

/** A list call's context: the lists read only the database (no seed, beacon or key is used). */
const listContext = (db: Db, caller: Caller) =>
  withCaller(
    commandContext({
      db,
      seeds: new SeedBox('bench'),
      beacon: new DrawBeacon({ mode: 'off', urls: [], chainHash: '' }),
      drawCrypto: nodeDrawCrypto,
      config: { totpKey: '' },
    }),
    caller,
  );

/**
 * Seeds once: a database that already holds exactly the data set is reused (seeding takes
 * minutes); answers the database's URL.
 */
export async function prepare(pgUrl: string, size: ScaleSize = SCALE): Promise<string> {
  const dbUrl = databaseUrl(pgUrl, size.database);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [size.database])).rowCount === 1;
  if (exists) {
    const probe = new pg.Client({ connectionString: dbUrl });
    await probe.connect();
    const games = await probe.query('SELECT count(*)::int AS n FROM games').catch(() => ({ rows: [{ n: 0 }] }));
    await probe.end();
    if ((games.rows[0]?.n ?? 0) === size.games) {
      await admin.end();
      console.log(`   reusing ${size.database} (${games.rows[0]?.n} games)`);
      return dbUrl;
    }
    await admin.query(`DROP DATABASE ${size.database} WITH (FORCE)`);
  }
  await admin.query(`CREATE DATABASE ${size.database}`);
  await admin.end();
  const database = await openDatabase({ kind: 'postgres', url: dbUrl });
  await ensureAdmin(database.db, { username: 'admin', password: ADMIN_PASSWORD });
  console.log(`   seeding ${size.users} users and ${size.games} games into ${size.database}…`);
  const started = performance.now();
  await seedScale(database.db, { users: size.users, games: size.games, superagents: 100, agentsPerSuperagent: 10 });
  console.log(`   seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await database.close();
  return dbUrl;
}

/** One request's server time (the Server-Timing header) and its total row count. */
async function timeHttp(base: string, token: string, path: string): Promise<{ ms: number; total: string }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  const dur = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
  return { ms: Number(dur?.[1] ?? Number.NaN), total: response.headers.get('x-total-count') ?? '' };
}

type Captured = { query: string; params: unknown[] }[];

/** The SQL the service runs for a call, captured through Drizzle's logger. */
async function captureQueries(dbUrl: string, run: (db: Db) => Promise<unknown>): Promise<Captured> {
  const captured: Captured = [];
  const logger: Logger = { logQuery: (query, params) => captured.push({ query, params }) };
  const database = await openDatabase({ kind: 'postgres', url: dbUrl, poolSize: 1, logger });
  try {
    await run(database.db);
    return captured;
  } finally {
    await database.close();
  }
}

type Plan = { 'Execution Time': number; 'Planning Time': number; Plan: { 'Node Type': string } };

/** EXPLAIN ANALYZE of every captured query: their planning + execution time summed, and top nodes. */
async function explain(client: pg.Client, captured: Captured): Promise<{ ms: number; plans: string[] }> {
  let ms = 0;
  const plans: string[] = [];
  for (const { query, params } of captured) {
    const result = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params);
    const plan = (result.rows[0] as { 'QUERY PLAN': Plan[] })['QUERY PLAN'][0];
    ms += (plan?.['Execution Time'] ?? 0) + (plan?.['Planning Time'] ?? 0);
    plans.push(plan?.Plan['Node Type'] ?? '?');
  }
  return { ms, plans };
}

/** The captured statements through bare `pg`, as named prepared statements, one after the other. */
async function timeBare(client: pg.Client, captured: Captured): Promise<number> {
  const started = performance.now();
  for (const { query, params } of captured) {
    await client.query({ name: statementName(query), text: query, values: params });
  }
  return performance.now() - started;
}

/**
 * The call over HTTP, its statements through bare `pg` and its SQL under EXPLAIN ANALYZE, turn
 * about, REQUESTS times each after 5 warm-up turns: all see the same moments of a shared machine,
 * and all give a p95. The call is first sent under load for BENCH_WARMUP seconds, as every
 * autocannon run is warmed: a server in service has long compiled the route's code and warmed each
 * pooled connection's caches and plans, which its first few hundred calls are still doing.
 */
async function measure(
  base: string,
  token: string,
  path: string,
  clients: { explain: pg.Client; bare: pg.Client },
  captured: Captured,
): Promise<{ http: number[]; sql: number[]; bare: number[]; total: string; plans: string[] }> {
  const http: number[] = [];
  const sqlTimes: number[] = [];
  const bare: number[] = [];
  let total = '';
  let plans: string[] = [];
  if (TIMING.warmup > 0) {
    const warm = await load(
      { url: `${base}${path}`, headers: { authorization: `Bearer ${token}` } },
      { ...TIMING, seconds: TIMING.warmup, warmup: 0 },
    );
    if (warm.errors > 0) throw new Error(`${path}: ${warm.errors} of ${warm.requests} warm-up calls failed`);
  }
  for (let i = 0; i < REQUESTS + 5; i++) {
    const response = await timeHttp(base, token, path);
    const plan = await explain(clients.explain, captured);
    const bareMs = await timeBare(clients.bare, captured);
    total = response.total;
    plans = plan.plans;
    if (i < 5) continue;
    http.push(response.ms);
    sqlTimes.push(plan.ms);
    bare.push(bareMs);
  }
  return { http, sql: sqlTimes, bare, total, plans };
}

type Scenario = { name: string; who: string; path: string; run: (db: Db) => Promise<unknown> };

/** A report's context: a report reads the database as the caller and the clock; it opens no game. */
const reportContext = (db: Db, caller: Caller) =>
  withCaller(
    commandContext({
      db,
      seeds: new SeedBox('0'.repeat(64)),
      beacon: new DrawBeacon({ mode: 'off', urls: [], chainHash: '' }),
      drawCrypto: nodeDrawCrypto,
      config: { totpKey: '' },
    }),
    caller,
  );
type Judge = { kind: string; target: string; met: (http: number, sql: number) => boolean };

/**
 * Calls on the kept data set of the server at `pgUrl` (seeded first if missing), each over HTTP
 * beside EXPLAIN ANALYZE of its SQL, as the admin, `sa_1`, `ag_1` and `u_1`.
 */
async function onScaleData(
  pgUrl: string,
  scenariosFor: (callers: Record<'admin' | 'superagent' | 'agent' | 'user', Caller>) => Scenario[],
  judge: Judge,
): Promise<Row[]> {
  const dbUrl = await prepare(pgUrl);
  const server = await startServer({ DATABASE_URL: dbUrl });
  try {
    // As a database in service keeps it (autovacuum): pages marked all-visible, so index-only
    // scans stay index-only, and fresh statistics, even right after a migration rewrote rows.
    const vacuum = new pg.Client({ connectionString: dbUrl });
    await vacuum.connect();
    await vacuum.query('VACUUM (ANALYZE)').finally(() => vacuum.end());
    const tokens: Record<string, string> = {};
    const callers: Record<string, Caller> = {};
    for (const [key, username, password] of [
      ['admin', 'admin', ADMIN_PASSWORD],
      ['superagent', 'sa_1', SCALE_PASSWORD],
      ['agent', 'ag_1', SCALE_PASSWORD],
      ['user', 'u_1', SCALE_PASSWORD],
    ] as const) {
      const login = await api<{ accessToken: string; id: number; role: Caller['role']; parentId: number | null }>(
        server.url,
        '/api/auth/signin',
        null,
        { username, password },
      );
      tokens[key] = login.accessToken;
      callers[key] = {
        id: login.id,
        username,
        fullName: username,
        role: login.role,
        parentId: login.parentId,
        tokenVersion: 0,
      };
    }
    const scenarios = scenariosFor(callers as Record<'admin' | 'superagent' | 'agent' | 'user', Caller>);
    const rows: Row[] = [];
    const clients = {
      explain: new pg.Client({ connectionString: dbUrl }),
      bare: new pg.Client({ connectionString: dbUrl }),
    };
    await Promise.all([clients.explain.connect(), clients.bare.connect()]);
    try {
      for (const scenario of scenarios) {
        const captured = await captureQueries(dbUrl, scenario.run);
        const m = await measure(server.url, tokens[scenario.who] ?? '', scenario.path, clients, captured);
        const http = { p50: percentile(m.http, 50), p95: percentile(m.http, 95) };
        const sqlTime = { p50: percentile(m.sql, 50), p95: percentile(m.sql, 95) };
        const bare = { p50: percentile(m.bare, 50), p95: percentile(m.bare, 95) };
        const gap = http.p95 - sqlTime.p95;
        rows.push({
          scenario: `${judge.kind}: ${scenario.name}${m.total ? ` (${m.total} rows)` : ''} vs EXPLAIN ANALYZE of its SQL`,
          ours: `p95 ${http.p95.toFixed(1)} ms (p50 ${http.p50.toFixed(1)})`,
          anchor:
            `p95 ${sqlTime.p95.toFixed(1)} ms (p50 ${sqlTime.p50.toFixed(1)}, ${captured.length} ` +
            `${captured.length === 1 ? 'statement' : 'statements'}); bare pg p95 ${bare.p95.toFixed(1)} ms`,
          ratio: `${gap >= 0 ? '+' : ''}${gap.toFixed(1)} ms`,
          target: judge.target,
          met: judge.met(http.p95, sqlTime.p95),
          raw: {
            http,
            sql: sqlTime,
            bare,
            plans: m.plans,
            samples: { http: m.http, sql: m.sql, bare: m.bare },
            requests: REQUESTS,
          },
        });
      }
    } finally {
      await Promise.all([clients.explain.end(), clients.bare.end()]);
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/** Every list call: the sales histories of each role, first, deep and filtered pages, and the users list. */
export function listScenarios(pgUrl: string): Promise<Row[]> {
  return onScaleData(
    pgUrl,
    (callers) => {
      const sa = callers.superagent;
      const ag = callers.agent;
      const us = callers.user;
      const aMonthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
      const now = new Date().toISOString();
      const page = (offset: number) => ({ limit: 10, offset });
      return [
        {
          name: 'all games, first page',
          who: 'admin',
          path: '/api/sales-history/filter?limit=10',
          run: (db) => filterSales(listContext(db, callers.admin), page(0)),
        },
        {
          name: 'all games, page 1,001',
          who: 'admin',
          path: '/api/sales-history/filter?limit=10&offset=10000',
          run: (db) => filterSales(listContext(db, callers.admin), page(10_000)),
        },
        {
          name: 'all games, one superagent, last 30 days',
          who: 'admin',
          path: `/api/sales-history/filter?limit=10&role=superagent&userId=${sa.id}&from=${aMonthAgo}&to=${now}`,
          run: (db) =>
            filterSales(listContext(db, callers.admin), {
              ...page(0),
              role: 'superagent',
              userId: sa.id,
              from: aMonthAgo,
              to: now,
            }),
        },
        {
          name: 'superagent, first page',
          who: 'superagent',
          path: `/api/sales-history/superagent/${sa.id}?limit=10`,
          run: (db) => listSales(listContext(db, sa), { role: 'superagent', id: sa.id }, page(0)),
        },
        {
          name: 'superagent, page 501',
          who: 'superagent',
          path: `/api/sales-history/superagent/${sa.id}?limit=10&offset=5000`,
          run: (db) => listSales(listContext(db, sa), { role: 'superagent', id: sa.id }, page(5000)),
        },
        {
          name: 'superagent, by agent, last 30 days',
          who: 'superagent',
          path: `/api/sales-history/superagent/${sa.id}?limit=10&agentId=${ag.id}&from=${aMonthAgo}&to=${now}`,
          run: (db) =>
            listSales(
              listContext(db, sa),
              { role: 'superagent', id: sa.id },
              { ...page(0), agentId: ag.id, from: aMonthAgo, to: now },
            ),
        },
        {
          name: 'agent, first page',
          who: 'agent',
          path: `/api/sales-history/agent/${ag.id}?limit=10`,
          run: (db) => listSales(listContext(db, ag), { role: 'agent', id: ag.id }, page(0)),
        },
        {
          name: 'agent, page 51',
          who: 'agent',
          path: `/api/sales-history/agent/${ag.id}?limit=10&offset=500`,
          run: (db) => listSales(listContext(db, ag), { role: 'agent', id: ag.id }, page(500)),
        },
        {
          name: 'agent, last 30 days',
          who: 'agent',
          path: `/api/sales-history/agent/${ag.id}?limit=10&from=${aMonthAgo}&to=${now}`,
          run: (db) =>
            listSales(listContext(db, ag), { role: 'agent', id: ag.id }, { ...page(0), from: aMonthAgo, to: now }),
        },
        {
          name: 'user, first page',
          who: 'user',
          path: `/api/sales-history/user/${us.id}?limit=10`,
          run: (db) => listSales(listContext(db, us), { role: 'user', id: us.id }, page(0)),
        },
        {
          name: 'user, page 2',
          who: 'user',
          path: `/api/sales-history/user/${us.id}?limit=10&offset=5`,
          run: (db) => listSales(listContext(db, us), { role: 'user', id: us.id }, page(5)),
        },
        {
          name: 'user, last 30 days',
          who: 'user',
          path: `/api/sales-history/user/${us.id}?limit=10&from=${aMonthAgo}&to=${now}`,
          run: (db) =>
            listSales(listContext(db, us), { role: 'user', id: us.id }, { ...page(0), from: aMonthAgo, to: now }),
        },
        {
          name: 'users list, first page',
          who: 'admin',
          path: '/api/users/role/user?limit=10',
          run: (db) => listUsers(listContext(db, callers.admin), { role: 'user', ...page(0) }),
        },
        {
          name: 'users list, page 5,001',
          who: 'admin',
          path: '/api/users/role/user?limit=10&offset=50000',
          run: (db) => listUsers(listContext(db, callers.admin), { role: 'user', ...page(50_000) }),
        },
        {
          name: 'users list, search',
          who: 'admin',
          path: '/api/users/role/user?limit=10&search=Player%20777',
          run: (db) => listUsers(listContext(db, callers.admin), { role: 'user', search: 'Player 777', ...page(0) }),
        },
      ];
    },
    { kind: 'list', target: '≤ SQL + 2 ms, < 50 ms', met: (http, sql) => http - sql <= 2 && http < 50 },
  );
}

/**
 * The downline report (issue 18's targets) as the web client asks for it, in the browser's zone:
 * the admin over the last month and over all time, a super agent and an agent over all time.
 */
export function reportScenarios(pgUrl: string): Promise<Row[]> {
  return onScaleData(
    pgUrl,
    (callers) => {
      const tz = 'Europe/Madrid';
      const day = (ago: number) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(Date.now() - ago * 86_400_000);
      const month = { from: day(30), to: day(0), tz };
      const allTime = { from: '2020-01-01', to: day(0), tz };
      const call = (name: string, who: 'admin' | 'superagent' | 'agent', period: typeof month): Scenario => ({
        name,
        who,
        path: `/api/reports/downline?from=${period.from}&to=${period.to}&tz=${encodeURIComponent(tz)}`,
        run: (db) => downline(reportContext(db, callers[who]), period),
      });
      return [
        call('downline, admin, last 30 days', 'admin', month),
        call('downline, admin, all time', 'admin', allTime),
        call('downline, superagent, last 30 days', 'superagent', month),
        call('downline, superagent, all time', 'superagent', allTime),
        call('downline, agent, all time', 'agent', allTime),
      ];
    },
    { kind: 'report', target: 'p95 < 100 ms', met: (http) => http < 100 },
  );
}
