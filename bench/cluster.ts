/**
 * `npm run bench -- cluster` (issue 34, docs/capacity.md): LOT as docs/deploy.md runs it, three API
 * processes on one PostgreSQL database behind HAProxy started with deploy/haproxy.cfg (filled in as
 * the cluster suite fills it in: packages/server/src/test/haproxy.ts).
 *
 * - Keyed transfers (bench/transfer.ts: a fresh Idempotency-Key and the bearer token, as the web
 *   client sends them) and whole games (bench/games.ts: open, entries, three draws) through the
 *   balancer to 1, 2 and 3 processes, beside the first process without the balancer: the anchor,
 *   measured in the same rounds. On two cores this shows the balancer's cost, not scaling.
 * - CPU per operation from /proc, over a measured batch: the serving API process(es), PostgreSQL
 *   (the postmaster and every backend), HAProxy, and the bench's own HTTP client, for a keyed
 *   transfer, a whole game, a draw (the draws of games opened outside the batch) and three read
 *   calls a shop's screens send (its ledger, its games, the header's bell).
 *
 * Writes bench/capacity.json (the per-operation figures, the machine and its load, the capacity
 * table docs/capacity.md shows) on every run of this group, and prints the table.
 */
import { spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { SCALE_PASSWORD } from '../packages/server/src/cli/seed-scale.ts';
import { sbin, writeHaproxyConfig } from '../packages/server/src/test/haproxy.ts';
import { freePort } from '../packages/server/src/test/server-process.ts';
import {
  ASSUMPTIONS,
  capacity,
  capacityTable,
  writeCapacityDoc,
  type CapacityReport,
  type Figures,
  type Growth,
  type PerOp,
  type ReadName,
} from './capacity-model.ts';
import { BACKGROUND, countData, freshCopy, HISTORY, seedHistory, vacuum } from './cluster-data.ts';
import { call, ENTRIES, overHttp, playFor, PRIZES, SETUP, SHOPS, type Run } from './games.ts';
import { prepare, SCALE, SCALE_SMALL } from './history.ts';
import {
  api,
  BROWSER_HEADERS,
  commit,
  cpuMs,
  load,
  postgresCpuMs,
  postgresVersion,
  postmasterOf,
  rateRow,
  root,
  ROUNDS,
  sampleLoad,
  scratchDir,
  startServer,
  TIMING,
  type Load,
  type Row,
  type Server,
  type Timing,
} from './lib.ts';
import { accounts, ADMIN_PASSWORD, httpTransfers, patterns, type Pattern, type Player } from './transfer.ts';

const DRAW_SECONDS = Number(process.env.BENCH_DRAW_SECONDS ?? 10);

/** Where the work is sent and whose CPU it costs. */
type Target = { name: string; url: string; api: number[]; idle: number[]; haproxy?: number; postmaster: number };

/** CPU time (ms) spent by each party over a batch. */
type Spent = { api: number; idle: number; haproxy: number; postgres: number; client: number };
const ZERO: Spent = { api: 0, idle: 0, haproxy: 0, postgres: 0, client: 0 };

function readCpu(target: Target): Spent {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuMs(pid), 0);
  return {
    api: sum(target.api),
    idle: sum(target.idle),
    haproxy: target.haproxy ? cpuMs(target.haproxy) : 0,
    postgres: target.postmaster ? postgresCpuMs(target.postmaster) : Number.NaN,
    client: cpuMs('self'),
  };
}

const combine = (a: Spent, b: Spent, sign = 1): Spent => ({
  api: a.api + sign * b.api,
  idle: a.idle + sign * b.idle,
  haproxy: a.haproxy + sign * b.haproxy,
  postgres: a.postgres + sign * b.postgres,
  client: a.client + sign * b.client,
});

async function spending<T>(target: Target, work: () => Promise<T>): Promise<{ result: T; cpu: Spent }> {
  const before = readCpu(target);
  const result = await work();
  return { result, cpu: combine(readCpu(target), before, -1) };
}

const perOp = (cpu: Spent, ops: number): PerOp => {
  const each = (ms: number) => ms / Math.max(1, ops);
  return {
    api: each(cpu.api),
    idle: each(cpu.idle),
    haproxy: each(cpu.haproxy),
    postgres: each(cpu.postgres),
    client: each(cpu.client),
    ops,
  };
};
const fmt = (ms: number) => ms.toFixed(2);
const describe = (c: PerOp) =>
  `API ${fmt(c.api)} + PostgreSQL ${fmt(c.postgres)} ms` +
  (c.haproxy ? ` + HAProxy ${fmt(c.haproxy)} ms` : '') +
  ` (the other API processes ${fmt(c.idle)}, HTTP client ${fmt(c.client)})`;

type Balancer = { url: string; pid: number; stop: () => Promise<void> };

/** HAProxy with deploy/haproxy.cfg in front of `backends`, its log in a file; ready once it answers. */
async function startBalancer(backends: Server[]): Promise<Balancer> {
  const dir = scratchDir('lot-bench-haproxy');
  const listen = await freePort();
  const cfg = writeHaproxyConfig(
    dir,
    listen,
    backends.map((server) => Number(new URL(server.url).port)),
  );
  const child = spawn(sbin('haproxy'), ['-db', '-f', cfg], {
    stdio: ['ignore', openSync(join(dir, 'out.log'), 'w'), 'inherit'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`haproxy did not answer on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // One check interval (deploy/haproxy.cfg: inter 1s), so that every backend has been checked.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      process.off('exit', kill);
    },
  };
}

type Measured<T> = { best: T; runs: number[]; cpu: PerOp };

/**
 * Every target in turn, ROUNDS rounds (direct, 1, 2, 3 processes, then again) after a pass that is
 * thrown away: the best rate of each kept, and its CPU per operation over all its measured runs
 * (their warm-ups included, as they ran inside).
 */
async function acrossRounds<T>(
  targets: Target[],
  run: (target: Target) => Promise<T>,
  rate: (result: T) => number,
  ops: (result: T) => number,
): Promise<Measured<T>[]> {
  const kept = targets.map(() => ({ best: undefined as T | undefined, runs: [] as number[], cpu: ZERO, ops: 0 }));
  // A pass that counts for nothing first: each process has compiled the route's code before it is measured.
  for (const target of targets) await run(target);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) {
      const { result, cpu } = await spending(target, () => run(target));
      const entry = kept[i] as (typeof kept)[number];
      entry.runs.push(rate(result));
      if (entry.best === undefined || rate(result) > rate(entry.best)) entry.best = result;
      entry.cpu = combine(entry.cpu, cpu);
      entry.ops += ops(result);
    }
  }
  return kept.map((entry) => {
    if (entry.best === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
    return { best: entry.best, runs: entry.runs, cpu: perOp(entry.cpu, entry.ops) };
  });
}

/** Whole games for the warm-up, then for the measured time; `all` counts both (for CPU per game). */
async function games(target: Target, shops: Player[]): Promise<Run & { all: number }> {
  const warm = TIMING.warmup > 0 ? await playFor(overHttp(target), shops, TIMING.warmup) : undefined;
  const run = await playFor(overHttp(target), shops, TIMING.seconds);
  return { ...run, all: run.games + (warm?.games ?? 0) };
}

/**
 * The draws alone: every shop opens a game and sends its entries (outside the batch), then all
 * draw their three positions (the batch), again and again for `seconds`.
 */
async function drawsAlone(target: Target, shops: Player[], seconds: number) {
  let opening = ZERO;
  let drawing = ZERO;
  let gamesOpened = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  while (performance.now() < end) {
    const opened = await spending(target, () =>
      Promise.all(
        shops.map(async (shop) => {
          const game = await call<{ id: number }>(target, 'POST', '/api/games', shop.token, SETUP);
          await call(target, 'PUT', `/api/games/${game.id}/entries`, shop.token, { entries: ENTRIES });
          return { shop, id: game.id };
        }),
      ),
    );
    const drawn = await spending(target, () =>
      Promise.all(
        opened.result.map(async ({ shop, id }) => {
          for (let position = 1; position <= PRIZES.length; position++)
            await call(target, 'POST', `/api/games/${id}/draws`, shop.token, { position });
        }),
      ),
    );
    opening = combine(opening, opened.cpu);
    drawing = combine(drawing, drawn.cpu);
    gamesOpened += opened.result.length;
  }
  return {
    open: perOp(opening, gamesOpened),
    draw: perOp(drawing, gamesOpened * PRIZES.length),
    games: gamesOpened,
    seconds: (performance.now() - started) / 1000,
    idle: opening.idle + drawing.idle,
  };
}

/** A GET the web client sends (its bearer token and the browser's headers), from a caller picked each time. */
function reads(url: string, pick: () => { path: string; token: string }, timing: Timing = TIMING): Promise<Load> {
  return load(
    {
      url,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => {
            const { path, token } = pick();
            return { ...request, path, headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` } };
          },
        },
      ],
    },
    timing,
  );
}

/**
 * Calls thrown away before a read is measured: the route's code compiled and every pooled
 * connection's plans made, as in a server that has been answering for a while.
 */
async function warm(url: string, path: string, token: string, times = 20): Promise<void> {
  await Promise.all(
    Array.from({ length: times }, async () => {
      const response = await fetch(`${url}${path}`, {
        headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }),
  );
}

const anyOf = <T>(items: T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)] ?? items[0];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};

/** The reads a shop's screens send (packages/web/src/features/…/api), the ones the model counts. */
const SHOP_READS: { key: ReadName; name: string; path: (shop: Player) => string }[] = [
  { key: 'ledger', name: "a shop's ledger, first page", path: () => '/api/transactions?limit=10&offset=0' },
  {
    key: 'games',
    name: "a shop's games, first page",
    path: (shop) => `/api/sales-history/user/${shop.id}?limit=10&offset=0`,
  },
  { key: 'bell', name: "the header's bell", path: () => '/api/notifications' },
];

/** The growth measurements' shorter runs (9 calls on two data sets): about 3 s of calls each. */
const SCALE_TIMING: Timing = { ...TIMING, warmup: 0, seconds: Math.min(TIMING.seconds, 3) };

type Who = 'admin' | 'superagent' | 'agent' | 'user';

/** Every role's first page and the downline report over all time, as the web client asks for them. */
function scaleCalls(ids: Record<Who, number>): { who: Who; name: string; path: string }[] {
  const tz = 'Europe/Madrid';
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(Date.now());
  const downline = `/api/reports/downline?from=2020-01-01&to=${today}&tz=${encodeURIComponent(tz)}`;
  const page = 'limit=10&offset=0';
  return [
    { who: 'user', name: "a player's ledger", path: `/api/transactions?${page}` },
    { who: 'user', name: "a player's games", path: `/api/sales-history/user/${ids.user}?${page}` },
    { who: 'agent', name: "an agent's ledger", path: `/api/transactions?${page}` },
    { who: 'agent', name: "an agent's games", path: `/api/sales-history/agent/${ids.agent}?${page}` },
    {
      who: 'superagent',
      name: "a superagent's games",
      path: `/api/sales-history/superagent/${ids.superagent}?${page}`,
    },
    { who: 'superagent', name: 'downline report, a superagent', path: downline },
    { who: 'admin', name: "the admin's ledger", path: `/api/transactions?${page}` },
    { who: 'admin', name: 'all games (admin)', path: `/api/sales-history/filter?${page}` },
    { who: 'admin', name: 'downline report, the admin', path: downline },
  ];
}

/** The same calls on each kept scale data set (seeded first when missing: minutes), one process. */
async function growthWithHistory(pgUrl: string): Promise<Growth[]> {
  const growth: Growth[] = [];
  for (const size of [SCALE_SMALL, SCALE]) {
    const dbUrl = await prepare(pgUrl, size);
    const server = await startServer({ DATABASE_URL: dbUrl });
    try {
      const logins = {} as Record<Who, { accessToken: string; id: number }>;
      for (const [who, username, password] of [
        ['admin', 'admin', ADMIN_PASSWORD],
        ['superagent', 'sa_1', SCALE_PASSWORD],
        ['agent', 'ag_1', SCALE_PASSWORD],
        ['user', 'u_1', SCALE_PASSWORD],
      ] as const) {
        logins[who] = await api(server.url, '/api/auth/signin', null, { username, password });
      }
      const ids = Object.fromEntries(Object.entries(logins).map(([who, l]) => [who, l.id])) as Record<Who, number>;
      const target: Target = {
        name: size.database,
        url: server.url,
        api: [server.pid],
        idle: [],
        postmaster: await postmasterOf(dbUrl),
      };
      for (const call of scaleCalls(ids)) {
        const token = logins[call.who].accessToken;
        // Three calls one after another warm it and say how long one takes; then as many calls as
        // fill about SCALE_TIMING.seconds on two cores (at least 6: the admin's ledger on 1,000,000
        // games takes seconds each), all counted, so that every measured call completes.
        const probeStart = performance.now();
        let rows = '';
        for (let i = 0; i < 3; i++) {
          const probe = await fetch(`${server.url}${call.path}`, {
            headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` },
          });
          if (!probe.ok) throw new Error(`${call.path}: ${probe.status} ${await probe.text()}`);
          rows = probe.headers.get('x-total-count') ?? '';
          await probe.arrayBuffer();
        }
        const oneMs = (performance.now() - probeStart) / 3;
        const amount = Math.min(2_000, Math.max(6, Math.round((2 * SCALE_TIMING.seconds * 1000) / oneMs)));
        const { result, cpu } = await spending(target, () =>
          load(
            {
              url: `${server.url}${call.path}`,
              headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` },
              amount,
              timeout: 300,
            },
            { ...SCALE_TIMING, connections: Math.min(SCALE_TIMING.connections, amount) },
          ),
        );
        const entry = growth.find((g) => g.name === call.name) ?? { name: call.name, path: call.path, sizes: [] };
        if (!growth.includes(entry)) growth.push(entry);
        entry.sizes.push({
          games: size.games,
          cpu: perOp(cpu, result.allRequests),
          rate: result.rate,
          p99: result.p99,
          errors: result.errors,
          rows: rows ? Number(rows).toLocaleString('en-US') : '',
        });
        console.log(`   ${size.database}: ${call.name}: ${describe(perOp(cpu, result.allRequests))}`);
      }
    } finally {
      await server.stop();
    }
  }
  return growth;
}

/**
 * The reads the model counts, on the shops of both seeded histories, before any write: every call
 * warmed on every shop first, then ROUNDS rounds of each read on each history in turn, so that
 * neither history is measured on a colder process or a quieter minute than the other; CPU summed
 * over the rounds.
 */
async function shopReads(direct: Target, groups: { games: number; shops: Player[] }[]) {
  for (const group of groups)
    for (const read of SHOP_READS) for (const shop of group.shops) await warm(direct.url, read.path(shop), shop.token);
  const measured: CapacityReport['reads'] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const read of SHOP_READS) {
      for (const group of groups) {
        const { result, cpu } = await spending(direct, () =>
          reads(direct.url, () => {
            const shop = anyOf(group.shops);
            return { path: read.path(shop), token: shop.token };
          }),
        );
        const entry = measured.find((r) => r.key === read.key && r.history === group.games);
        const spent = perOp(cpu, result.allRequests);
        if (entry) {
          // Both rounds' CPU over both rounds' calls; the better rate and p99 of the two.
          const ops = entry.cpu.ops + spent.ops;
          const mix = (side: keyof Spent) => (entry.cpu[side] * entry.cpu.ops + spent[side] * spent.ops) / ops;
          entry.cpu = {
            api: mix('api'),
            idle: mix('idle'),
            haproxy: mix('haproxy'),
            postgres: mix('postgres'),
            client: mix('client'),
            ops,
          };
          entry.rate = Math.max(entry.rate, result.rate);
          entry.p99 = Math.min(entry.p99, result.p99);
          entry.errors += result.errors;
          continue;
        }
        measured.push({
          key: read.key,
          name: read.name,
          path: read.path({ id: 0 } as Player).replace('/0?', '/{id}?'),
          history: group.games,
          cpu: spent,
          rate: result.rate,
          p99: result.p99,
          errors: result.errors,
        });
      }
    }
  }
  const of = (key: ReadName, games: number): PerOp => {
    const cpu = measured.find((r) => r.key === key && r.history === games)?.cpu;
    if (!cpu) throw new Error(`no ${key} read at ${games} games`);
    return cpu;
  };
  const both = (key: ReadName) => ({ short: of(key, HISTORY.short), long: of(key, HISTORY.long) });
  return { measured, reads: { ledger: both('ledger'), games: both('games'), bell: both('bell') } };
}

export async function clusterScenarios(pgUrl: string): Promise<Row[]> {
  const started = new Date();
  const loadAtStart = os.loadavg();
  const loadSamples = sampleLoad();
  console.log('   the data set (bench/cluster-data.ts)');
  const url = await freshCopy(pgUrl, 'lot_bench_cluster');
  const env = { DATABASE_URL: url, ADMIN_PASSWORD, TRUST_PROXY: '127.0.0.1' };
  // The copy holds the schema and the admin: the first brings the schema up to date, if needed.
  const first = await startServer(env);
  const servers = [first, await startServer(env), await startServer(env)];
  const balancers: Balancer[] = [];
  try {
    const admin = await api<{ accessToken: string }>(first.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    for (const prize of PRIZES) await api(first.url, '/api/winners', admin.accessToken, prize);
    const { players, minId, maxId } = await accounts(first);
    const shops = players.slice(0, SHOPS);
    // The read shops: the last accounts, in two groups of a stated history each.
    const readers = players.slice(-2 * HISTORY.shopsEach);
    const groups = [
      { games: HISTORY.short, shops: readers.slice(0, HISTORY.shopsEach) },
      { games: HISTORY.long, shops: readers.slice(HISTORY.shopsEach) },
    ];
    for (const group of groups)
      await seedHistory(
        url,
        group.shops.map((shop) => shop.id),
        group.games,
      );
    await vacuum(url);
    const atStart = await countData(url);

    for (let count = 1; count <= 3; count++) balancers.push(await startBalancer(servers.slice(0, count)));
    const postmaster = await postmasterOf(url);
    const pids = servers.map((server) => server.pid);
    const direct: Target = { name: 'direct', url: first.url, api: [first.pid], idle: pids.slice(1), postmaster };
    const targets: Target[] = [
      direct,
      ...balancers.map((balancer, i) => ({
        name: `${i + 1}`,
        url: balancer.url,
        api: pids.slice(0, i + 1),
        idle: pids.slice(i + 1),
        haproxy: balancer.pid,
        postmaster,
      })),
    ];
    const processes = (count: number) => `${count} API process${count === 1 ? '' : 'es'}`;
    const uniform = patterns(minId, maxId)[0] as Pattern;

    console.log(`   a shop's reads at ${HISTORY.short} and ${HISTORY.long} games on record, before any write`);
    const shopRead = await shopReads(direct, groups);
    console.log('   transfers: direct, then through HAProxy to 1, 2, 3 processes, each round');
    const transfers = await acrossRounds(
      targets,
      (target) => httpTransfers(target, players, uniform, true),
      (l) => l.rate,
      (l) => l.allRequests,
    );
    console.log('   whole games: the same');
    const played = await acrossRounds(
      targets,
      (target) => games(target, shops),
      (r) => r.rate,
      (r) => r.all,
    );
    console.log('   draws alone, one process without the balancer');
    // The idle processes' own pace (health checks, timers), then what hearing the games adds.
    const quiet = await spending(direct, () => new Promise((resolve) => setTimeout(resolve, 5_000)));
    const draws = await drawsAlone(direct, shops, DRAW_SECONDS);
    const fanOut = Math.max(0, draws.idle - (quiet.cpu.idle / 5) * draws.seconds) / draws.games / direct.idle.length;
    const atEnd = await countData(url);
    for (const balancer of balancers.splice(0)) await balancer.stop();
    for (const server of servers.splice(0)) await server.stop();

    console.log(`   growth with history: the same calls on ${SCALE_SMALL.games} and ${SCALE.games} games`);
    const growth = await growthWithHistory(pgUrl);

    const rows: Row[] = [];
    const anchorTransfers = transfers[0] as Measured<Load>;
    const anchorGames = played[0] as Measured<Run & { all: number }>;
    const balancer: CapacityReport['balancer'] = [];
    for (let count = 1; count <= 3; count++) {
      const t = transfers[count] as Measured<Load>;
      const row = rateRow(
        `keyed transfers through HAProxy (deploy/haproxy.cfg) to ${processes(count)} vs one process without it`,
        t.best,
        anchorTransfers.best.rate,
        0.9,
        { runs: { ours: t.runs, anchor: anchorTransfers.runs } },
      );
      if (count === 1) row.ours += `; HAProxy ${fmt(t.cpu.haproxy)} ms CPU each`;
      row.raw = { ...row.raw, cpu: t.cpu, anchorCpu: anchorTransfers.cpu };
      rows.push(row);
      balancer.push({
        what: 'transfers',
        processes: count,
        ratio: t.best.rate / anchorTransfers.best.rate,
        runs: t.runs,
        anchorRuns: anchorTransfers.runs,
      });
    }
    for (let count = 1; count <= 3; count++) {
      const g = played[count] as Measured<Run & { all: number }>;
      const ratio = anchorGames.best.rate > 0 ? g.best.rate / anchorGames.best.rate : 0;
      balancer.push({ what: 'games', processes: count, ratio, runs: g.runs, anchorRuns: anchorGames.runs });
      rows.push({
        scenario: `whole games (${SHOPS} shops at once, ${ENTRIES.length} entries, ${PRIZES.length} draws) through HAProxy to ${processes(count)} vs one process without it`,
        ours: `${g.best.rate.toFixed(1)} games/s (${g.best.games} games, draw p95 ${g.best.drawP95.toFixed(1)} ms)`,
        anchor: `${anchorGames.best.rate.toFixed(1)} games/s (${anchorGames.best.games} games, draw p95 ${anchorGames.best.drawP95.toFixed(1)} ms)`,
        ratio: ratio.toFixed(2),
        target: '≥ 0.9',
        met: ratio >= 0.9,
        raw: { ours: g.best, anchor: anchorGames.best, runs: { ours: g.runs, anchor: anchorGames.runs }, cpu: g.cpu },
      });
    }
    const cpuRow = (scenario: string, cpu: PerOp, through?: PerOp): Row => ({
      scenario: `CPU per operation: ${scenario} (one process without the balancer, /proc over ${cpu.ops} operations)`,
      ours: describe(cpu),
      anchor: through ? `through HAProxy to 1 process: ${describe(through)}` : '—',
      ratio: '—',
      target: 'measured (docs/capacity.md)',
      met: true,
      raw: { cpu, through },
    });
    rows.push(
      cpuRow('a keyed transfer', anchorTransfers.cpu, (transfers[1] as Measured<Load>).cpu),
      cpuRow(
        `a whole game (open, ${ENTRIES.length} entries, ${PRIZES.length} draws)`,
        anchorGames.cpu,
        (played[1] as Measured<Run>).cpu,
      ),
      cpuRow('opening a game and sending its entries', draws.open),
      cpuRow('a draw', draws.draw),
      {
        scenario: `CPU per game on each other API process, hearing its changes (NOTIFY lot_games; over ${draws.games} games, its idle pace subtracted)`,
        ours: `${fmt(fanOut)} ms`,
        anchor: `idle pace ${fmt(quiet.cpu.idle / 5 / direct.idle.length)} ms/s`,
        ratio: '—',
        target: 'measured (docs/capacity.md)',
        met: true,
        raw: { fanOut, quiet: quiet.cpu, draws },
      },
      ...shopRead.measured.map((read) => {
        const row = cpuRow(
          `${read.name}, ${read.history} games on record (GET, ${read.rate.toFixed(0)}/s, p99 ${read.p99} ms)`,
          read.cpu,
        );
        row.met = read.errors === 0;
        return row;
      }),
      ...growth.map((g) => ({
        scenario: `CPU per call as history grows: ${g.name} (GET ${g.path.split('?')[0]}), ${g.sizes.map((s) => s.games.toLocaleString('en-US')).join(' vs ')} games`,
        ours: g.sizes.map((s) => describe(s.cpu)).join(' | '),
        anchor: '—',
        ratio: '—',
        target: 'measured (docs/capacity.md)',
        met: g.sizes.every((s) => s.errors === 0),
        raw: { sizes: g.sizes },
      })),
    );

    const figures: Figures = {
      transfer: anchorTransfers.cpu,
      game: anchorGames.cpu,
      draw: draws.draw,
      open: draws.open,
      reads: shopRead.reads,
      history: { short: HISTORY.short, long: HISTORY.long },
      fanOut,
      haproxy: (transfers[1] as Measured<Load>).cpu.haproxy,
    };
    const table = capacityTable(figures);
    console.log(`\n${table}\n`);
    const report: CapacityReport = {
      run: {
        command: `npm run bench -- ${process.argv.slice(2).join(' ') || 'cluster'}`,
        date: started.toISOString(),
        seconds: (Date.now() - started.getTime()) / 1000,
        commit: commit(),
        machine: {
          cores: os.cpus().length,
          cpu: os.cpus()[0]?.model ?? 'unknown',
          memoryGb: Math.round(os.totalmem() / 2 ** 30),
          platform: `${os.type()} ${os.release()} ${os.arch()}`,
        },
        loadAverage: { start: loadAtStart, samples: loadSamples.stop(), end: os.loadavg() },
        node: process.version,
        postgres: await postgresVersion(url),
        apiProcesses: 3,
        timing: { ...TIMING, rounds: ROUNDS, drawSeconds: DRAW_SECONDS },
        scaleTiming: SCALE_TIMING,
      },
      data: {
        background: BACKGROUND,
        accounts: players.length,
        shops: shops.length,
        history: HISTORY,
        atStart,
        atEnd,
        scale: [SCALE_SMALL, SCALE],
      },
      figures,
      reads: shopRead.measured,
      balancer,
      fanOut: { quietMsPerSecond: quiet.cpu.idle / 5, games: draws.games },
      growth,
      assumptions: ASSUMPTIONS,
      capacity: capacity(figures),
      table,
    };
    writeFileSync(join(root, 'bench/capacity.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeCapacityDoc(root, report);
    return rows;
  } finally {
    loadSamples.stop();
    for (const balancer of balancers) await balancer.stop();
    for (const server of servers) await server.stop();
  }
}
