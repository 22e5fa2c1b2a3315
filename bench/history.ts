/**
 * `npm run bench:history`: list calls on 1,000,000 games and 100,000 users in PostgreSQL.
 * For each call — first page, a deep page, a filtered page — the server-side latency (p50/p95
 * from the Server-Timing header over sequential requests) beside EXPLAIN ANALYZE of the very SQL
 * the service runs for it (captured through Drizzle's logger), so the gap is our own overhead.
 */
import pg from 'pg';
import type { Logger } from 'drizzle-orm';
import { openDatabase, type Db } from '../packages/server/src/db/client.ts';
import { ensureAdmin } from '../packages/server/src/db/seed.ts';
import { SCALE_PASSWORD, seedScale } from '../packages/server/src/db/seed-scale.ts';
import type { Caller } from '../packages/server/src/plugins/auth.ts';
import { listSales, filterSales } from '../packages/server/src/modules/sales-history/sales-history.service.ts';
import { listUsers } from '../packages/server/src/modules/users/users.service.ts';
import { api, benchPostgres, startServer } from './lib.ts';

const GAMES = Number(process.env.SCALE_GAMES ?? 1_000_000);
const USERS = Number(process.env.SCALE_USERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const ADMIN_PASSWORD = 'bench-admin-password';
const DB_NAME = 'lot_bench_history';

const pgServer = benchPostgres();
const dbUrl = new URL(pgServer.url);
dbUrl.pathname = `/${DB_NAME}`;

/** Seeds once: a database that already holds the data set is reused (seeding takes minutes). */
async function prepare(): Promise<void> {
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
  if (exists) {
    const probe = new pg.Client({ connectionString: dbUrl.toString() });
    await probe.connect();
    const games = await probe.query('SELECT count(*)::int AS n FROM games').catch(() => ({ rows: [{ n: 0 }] }));
    await probe.end();
    if ((games.rows[0]?.n ?? 0) >= GAMES) {
      await admin.end();
      console.log(`Reusing ${DB_NAME} (${games.rows[0]?.n} games).`);
      return;
    }
    await admin.query(`DROP DATABASE ${DB_NAME} WITH (FORCE)`);
  }
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString() });
  await ensureAdmin(database.db, { username: 'admin', password: ADMIN_PASSWORD });
  console.log(`Seeding ${USERS} users and ${GAMES} games…`);
  const started = performance.now();
  await seedScale(database.db, { users: USERS, games: GAMES, superagents: 100, agentsPerSuperagent: 10 });
  console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  await database.close();
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function timeHttp(
  base: string,
  token: string,
  path: string,
): Promise<{ p50: number; p95: number; total: string }> {
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < REQUESTS + 5; i++) {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    total = response.headers.get('x-total-count') ?? '';
    const dur = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
    if (i >= 5) times.push(Number(dur?.[1] ?? Number.NaN)); // the first few warm caches and plans
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), total };
}

/** Runs the service call with a logging connection, then EXPLAIN ANALYZE on each captured query. */
async function explain(run: (db: Db) => Promise<unknown>): Promise<{ ms: number; plans: string[] }> {
  const captured: { query: string; params: unknown[] }[] = [];
  const logger: Logger = { logQuery: (query, params) => captured.push({ query, params }) };
  const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 1, logger });
  const client = new pg.Client({ connectionString: dbUrl.toString() });
  await client.connect();
  try {
    await run(database.db); // warm-up, as the HTTP side had
    captured.length = 0;
    await run(database.db);
    let best = Number.POSITIVE_INFINITY;
    const plans: string[] = [];
    for (let round = 0; round < 5; round++) {
      let ms = 0;
      for (const { query, params } of captured) {
        const result = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params);
        const plan = (
          result.rows[0] as {
            'QUERY PLAN': { 'Execution Time': number; 'Planning Time': number; Plan: { 'Node Type': string } }[];
          }
        )['QUERY PLAN'][0];
        ms += (plan?.['Execution Time'] ?? 0) + (plan?.['Planning Time'] ?? 0);
        if (round === 0) plans.push(plan?.Plan['Node Type'] ?? '?');
      }
      best = Math.min(best, ms);
    }
    return { ms: best, plans };
  } finally {
    await client.end();
    await database.close();
  }
}

await prepare();
const server = await startServer({
  DATABASE_URL: dbUrl.toString(),
  JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
});
try {
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
  const sa = callers.superagent as Caller;
  const ag = callers.agent as Caller;
  const us = callers.user as Caller;
  const aMonthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const now = new Date().toISOString();
  const page = (offset: number) => ({ limit: 10, offset });
  const scenarios: { name: string; who: string; path: string; run: (db: Db) => Promise<unknown> }[] = [
    {
      name: 'all games, first page',
      who: 'admin',
      path: '/api/sales-history/filter?limit=10',
      run: (db) => filterSales(db, callers.admin as Caller, page(0)),
    },
    {
      name: 'all games, page 1,001',
      who: 'admin',
      path: '/api/sales-history/filter?limit=10&offset=10000',
      run: (db) => filterSales(db, callers.admin as Caller, page(10_000)),
    },
    {
      name: 'all games, one superagent, last 30 days',
      who: 'admin',
      path: `/api/sales-history/filter?limit=10&role=superagent&userId=${sa.id}&from=${aMonthAgo}&to=${now}`,
      run: (db) =>
        filterSales(db, callers.admin as Caller, {
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
      run: (db) => listSales(db, sa, { role: 'superagent', id: sa.id }, page(0)),
    },
    {
      name: 'superagent, page 501',
      who: 'superagent',
      path: `/api/sales-history/superagent/${sa.id}?limit=10&offset=5000`,
      run: (db) => listSales(db, sa, { role: 'superagent', id: sa.id }, page(5000)),
    },
    {
      name: 'superagent, by agent, last 30 days',
      who: 'superagent',
      path: `/api/sales-history/superagent/${sa.id}?limit=10&agentId=${ag.id}&from=${aMonthAgo}&to=${now}`,
      run: (db) =>
        listSales(db, sa, { role: 'superagent', id: sa.id }, { ...page(0), agentId: ag.id, from: aMonthAgo, to: now }),
    },
    {
      name: 'agent, first page',
      who: 'agent',
      path: `/api/sales-history/agent/${ag.id}?limit=10`,
      run: (db) => listSales(db, ag, { role: 'agent', id: ag.id }, page(0)),
    },
    {
      name: 'agent, page 51',
      who: 'agent',
      path: `/api/sales-history/agent/${ag.id}?limit=10&offset=500`,
      run: (db) => listSales(db, ag, { role: 'agent', id: ag.id }, page(500)),
    },
    {
      name: 'agent, last 30 days',
      who: 'agent',
      path: `/api/sales-history/agent/${ag.id}?limit=10&from=${aMonthAgo}&to=${now}`,
      run: (db) => listSales(db, ag, { role: 'agent', id: ag.id }, { ...page(0), from: aMonthAgo, to: now }),
    },
    {
      name: 'user, first page',
      who: 'user',
      path: `/api/sales-history/user/${us.id}?limit=10`,
      run: (db) => listSales(db, us, { role: 'user', id: us.id }, page(0)),
    },
    {
      name: 'user, page 2',
      who: 'user',
      path: `/api/sales-history/user/${us.id}?limit=10&offset=5`,
      run: (db) => listSales(db, us, { role: 'user', id: us.id }, page(5)),
    },
    {
      name: 'user, last 30 days',
      who: 'user',
      path: `/api/sales-history/user/${us.id}?limit=10&from=${aMonthAgo}&to=${now}`,
      run: (db) => listSales(db, us, { role: 'user', id: us.id }, { ...page(0), from: aMonthAgo, to: now }),
    },
    {
      name: 'users list, first page',
      who: 'admin',
      path: '/api/users/role/user?limit=10',
      run: (db) => listUsers(db, callers.admin as Caller, { role: 'user', ...page(0) }),
    },
    {
      name: 'users list, page 5,001',
      who: 'admin',
      path: '/api/users/role/user?limit=10&offset=50000',
      run: (db) => listUsers(db, callers.admin as Caller, { role: 'user', ...page(50_000) }),
    },
    {
      name: 'users list, search',
      who: 'admin',
      path: '/api/users/role/user?limit=10&search=Player%20777',
      run: (db) => listUsers(db, callers.admin as Caller, { role: 'user', search: 'Player 777', ...page(0) }),
    },
  ];
  const rows: string[] = [];
  let worst = 0;
  for (const scenario of scenarios) {
    const http = await timeHttp(server.url, tokens[scenario.who] ?? '', scenario.path);
    const sqlTime = await explain(scenario.run);
    worst = Math.max(worst, http.p95);
    rows.push(
      `| ${scenario.name} | ${http.total} | ${http.p50.toFixed(1)} | ${http.p95.toFixed(1)} | ${sqlTime.ms.toFixed(1)} | ${(http.p95 - sqlTime.ms).toFixed(1)} | ${sqlTime.plans.join(', ')} |`,
    );
    console.log(rows.at(-1));
  }
  console.log(`\nList calls on ${GAMES} games / ${USERS} users, PostgreSQL, ${REQUESTS} sequential requests each (ms)`);
  console.log(
    '| scenario | rows | server p50 | server p95 | EXPLAIN ANALYZE (all its queries) | p95 − SQL | top plan nodes |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\nWorst p95: ${worst.toFixed(1)} ms (target < 50 ms): ${worst < 50 ? 'met' : 'NOT met'}`);
} finally {
  server.child.kill('SIGTERM');
  pgServer.stop();
}
