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
import pg from 'pg';
import { sbin, writeHaproxyConfig } from '../packages/server/src/test/haproxy.ts';
import { freePort } from '../packages/server/src/test/server-process.ts';
import { call, ENTRIES, overHttp, playFor, PRIZES, SETUP, SHOPS, type Run } from './games.ts';
import {
  api,
  cpuMs,
  freshDatabase,
  load,
  postgresCpuMs,
  postmasterOf,
  rateRow,
  root,
  ROUNDS,
  scratchDir,
  startServer,
  TIMING,
  type Load,
  type Row,
  type Server,
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

/** CPU per operation (ms), each party. */
export type PerOp = Spent & { ops: number };
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

/** A GET the web client sends, from every shop in turn, with its bearer token. */
function reads(target: Target, shops: Player[], path: (shop: Player) => string): Promise<Load> {
  return load({
    url: target.url,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const shop = shops[Math.floor(Math.random() * shops.length)] ?? shops[0];
          if (!shop) throw new Error('no shops');
          return { ...request, path: path(shop), headers: { authorization: `Bearer ${shop.token}` } };
        },
      },
    ],
  });
}

/**
 * The assumptions docs/capacity.md states: the CPU share a node may be kept at, and what one shop
 * does in a busy hour. Each API process is counted as one core (Node runs requests on one thread).
 */
export const ASSUMPTIONS = {
  utilisation: 0.7,
  perShopHour: { games: 12, transfers: 4, reads: 90 },
  vcpus: [2, 4, 8, 16],
};

/**
 * CPU per operation (ms) on the serving API process, PostgreSQL and HAProxy; `fanOut`: what one
 * other API process spends per game hearing its changes (NOTIFY lot_games, five a game).
 */
export type Figures = { transfer: PerOp; game: PerOp; draw: PerOp; read: PerOp; fanOut: number; haproxy: number };

/** What one PostgreSQL node of N vCPU and one API process carry, from CPU per operation. */
export function capacity(figures: Figures) {
  const { utilisation: u, perShopHour: mix, vcpus } = ASSUMPTIONS;
  const budget = (cores: number) => cores * u * 1000; // CPU-ms per second
  const shopMs = (side: 'api' | 'postgres') =>
    mix.games * figures.game[side] + mix.transfers * figures.transfer[side] + mix.reads * figures.read[side];
  const of = (cores: number, side: 'api' | 'postgres') => ({
    transfersPerSecond: budget(cores) / figures.transfer[side],
    gamesPerMinute: (60 * budget(cores)) / figures.game[side],
    shops: (3600 * budget(cores)) / shopMs(side),
  });
  // M processes (one core each) carry the shops' own work plus every game heard by the other M - 1.
  const fanShopMs = mix.games * figures.fanOut;
  const shopsOf = (m: number) => (3600 * budget(m)) / (shopMs('api') + (m - 1) * fanShopMs);
  const processesFor = (shops: number) => {
    for (let m = 1; m <= 1000; m++) if (shopsOf(m) >= shops) return m;
    return Number.POSITIVE_INFINITY;
  };
  return {
    apiProcess: of(1, 'api'),
    /** However many processes: the fan-out alone would take all their CPU past this many shops. */
    fanOutCeilingShops: fanShopMs > 0 ? (3600 * budget(1)) / fanShopMs : Number.POSITIVE_INFINITY,
    haproxyRequestsPerSecondPerCore: figures.haproxy > 0 ? budget(1) / figures.haproxy : Number.NaN,
    postgres: vcpus.map((n) => {
      const node = of(n, 'postgres');
      return { vcpus: n, ...node, apiProcesses: processesFor(node.shops) };
    }),
  };
}

export function capacityTable(figures: Figures): string {
  const { apiProcess, postgres, fanOutCeilingShops } = capacity(figures);
  const n = (x: number) => (Number.isFinite(x) ? Math.floor(x).toLocaleString('en-US') : '—');
  return [
    '| PostgreSQL node | transfers/s | games/min | shops (busy hour) | API processes to keep up |',
    '|---|---|---|---|---|',
    ...postgres.map(
      (row) =>
        `| ${row.vcpus} vCPU | ${n(row.transfersPerSecond)} | ${n(row.gamesPerMinute)} | ${n(row.shops)} | ${n(row.apiProcesses)} |`,
    ),
    `| one API process (1 core) | ${n(apiProcess.transfersPerSecond)} | ${n(apiProcess.gamesPerMinute)} | ${n(apiProcess.shops)} | |`,
    `| API processes' ceiling (game fan-out) | | | ${n(fanOutCeilingShops)} | |`,
  ].join('\n');
}

export async function clusterScenarios(pgUrl: string): Promise<Row[]> {
  const loadAtStart = os.loadavg();
  const url = await freshDatabase(pgUrl, 'lot_bench_cluster');
  const env = { DATABASE_URL: url, ADMIN_PASSWORD, TRUST_PROXY: '127.0.0.1' };
  // The first migrates; the other two find the schema done.
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
    console.log('   draws alone, then read calls, one process without the balancer');
    // The idle processes' own pace (health checks, timers), then what hearing the games adds.
    const quiet = await spending(direct, () => new Promise((resolve) => setTimeout(resolve, 5_000)));
    const draws = await drawsAlone(direct, shops, DRAW_SECONDS);
    const fanOut = Math.max(0, draws.idle - (quiet.cpu.idle / 5) * draws.seconds) / draws.games / direct.idle.length;

    // As a database in service keeps it (autovacuum): the reads measured on fresh statistics.
    const vacuum = new pg.Client({ connectionString: url });
    await vacuum.connect();
    await vacuum.query('VACUUM (ANALYZE)');
    const { rows: sizes } = await vacuum.query<{ transactions: number; games: number }>(
      'SELECT (SELECT count(*) FROM transactions)::int AS transactions, (SELECT count(*) FROM game_rounds)::int AS games',
    );
    await vacuum.end();
    const readCalls = [
      { name: "a shop's ledger, first page", path: () => '/api/transactions?limit=10&offset=0' },
      {
        name: "a shop's games, first page",
        path: (shop: Player) => `/api/sales-history/user/${shop.id}?limit=10&offset=0`,
      },
      { name: "the header's bell (every 60 s on every screen)", path: () => '/api/notifications' },
    ];
    const readFigures: { name: string; load: Load; cpu: PerOp }[] = [];
    for (const read of readCalls) {
      const { result, cpu } = await spending(direct, () => reads(direct, shops, read.path));
      readFigures.push({ name: read.name, load: result, cpu: perOp(cpu, result.allRequests) });
    }

    const rows: Row[] = [];
    const anchorTransfers = transfers[0] as Measured<Load>;
    const anchorGames = played[0] as Measured<Run & { all: number }>;
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
    }
    for (let count = 1; count <= 3; count++) {
      const g = played[count] as Measured<Run & { all: number }>;
      const ratio = anchorGames.best.rate > 0 ? g.best.rate / anchorGames.best.rate : 0;
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
      ...readFigures.map((read) => {
        const row = cpuRow(`${read.name} (GET, ${read.load.rate.toFixed(0)}/s, p99 ${read.load.p99} ms)`, read.cpu);
        row.met = read.load.errors === 0;
        return row;
      }),
    );

    // The read a shop's hour is counted in: the three calls' mean (docs/capacity.md).
    const mean = (side: keyof Spent) => readFigures.reduce((sum, r) => sum + r.cpu[side], 0) / readFigures.length;
    const read: PerOp = {
      api: mean('api'),
      idle: mean('idle'),
      haproxy: mean('haproxy'),
      postgres: mean('postgres'),
      client: mean('client'),
      ops: readFigures.reduce((sum, r) => sum + r.cpu.ops, 0),
    };
    const figures: Figures = {
      transfer: anchorTransfers.cpu,
      game: anchorGames.cpu,
      draw: draws.draw,
      read,
      fanOut,
      haproxy: (transfers[1] as Measured<Load>).cpu.haproxy,
    };
    const table = capacityTable(figures);
    console.log(`\n${table}\n`);
    writeFileSync(
      join(root, 'bench/capacity.json'),
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: {
            cores: os.cpus().length,
            cpu: os.cpus()[0]?.model ?? 'unknown',
            loadAverage: { start: loadAtStart, end: os.loadavg() },
          },
          data: { ...sizes[0], players: players.length, shops: shops.length },
          timing: { ...TIMING, rounds: ROUNDS, drawSeconds: DRAW_SECONDS },
          figures,
          fanOut: { quietMsPerSecond: quiet.cpu.idle / 5, ...draws },
          reads: readFigures.map((r) => ({ name: r.name, cpu: r.cpu, rate: r.load.rate, p99: r.load.p99 })),
          assumptions: ASSUMPTIONS,
          capacity: capacity(figures),
          table,
        },
        null,
        2,
      )}\n`,
    );
    return rows;
  } finally {
    for (const balancer of balancers) await balancer.stop();
    for (const server of servers) await server.stop();
  }
}
