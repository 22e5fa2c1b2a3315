import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** One line of bench/results.md; `ratio` as shown (ours ÷ anchor for rates, the gap for times). */
export type Row = {
  scenario: string;
  ours: string;
  anchor: string;
  ratio: string;
  target: string;
  met: boolean;
  raw: Record<string, unknown>;
};

/** Where the kept benchmark cluster lives when no server is given: the 1 M-game data set stays in it. */
export const BENCH_PG_DIR = process.env.BENCH_PG_DIR ?? join(tmpdir(), 'lot-bench-pg');

/**
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL), else the kept cluster in BENCH_PG_DIR, started for
 * this run and stopped (not removed) at the end.
 */
export function benchPostgres(): { url: string; stop: () => void } {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: () => {} };
  const started = spawnSync('bash', [`${root}/scripts/pg-temp.sh`, 'start', BENCH_PG_DIR], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`could not start PostgreSQL:\n${started.stderr}`);
  const vars = Object.fromEntries([...started.stdout.matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    spawnSync('bash', [`${root}/scripts/pg-temp.sh`, 'stop', BENCH_PG_DIR, 'keep']);
  };
  process.once('exit', stop);
  return { url: vars.TEST_DATABASE_URL ?? '', stop };
}

/** The URL of database `name` on the server at `base`. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database on the server at `base`; returns its URL. */
export async function freshDatabase(base: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return databaseUrl(base, name);
}

/** A temporary directory removed when the run ends. */
const scratchDirs: string[] = [];
process.once('exit', () => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export type Server = { url: string; pid: number; stop: () => Promise<void> };

/**
 * Runs a Node script as a server process and resolves once it prints `pattern` (its URL in group
 * 1). Its output goes to a file, as a deployed server's would, so reading logs costs the
 * benchmark nothing.
 */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
  nodeArgs: string[] = [],
): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'lot-bench-log-'));
  const log = join(dir, 'out.log');
  // TypeScript (a command, the test beacon) through tsx; the built server as it ships.
  const loader = args[0]?.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, ...args], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', openSync(log, 'w'), 'inherit'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    children.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = pattern.exec(readFileSync(log, 'utf8'));
      if (match?.[1]) {
        clearInterval(timer);
        resolve({ url: match[1], pid: child.pid ?? 0, stop });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`${args[0]} exited (${code}):\n${readFileSync(log, 'utf8').slice(-4000)}`));
    });
  });
}

export const BENCH_SEED_KEY = 'bench-seed-key-that-is-long-enough-0123456789';

/**
 * The real server with its default log level, as deployed: built into one file when stale
 * (scripts/build-server.mjs, decision 085). BENCH_PROFILE=DIR writes a CPU profile of each server
 * run into DIR (open it in Chrome DevTools).
 */
export function startServer(env: Record<string, string>): Promise<Server> {
  const profile = process.env.BENCH_PROFILE;
  if (
    spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' }).status !==
    0
  )
    throw new Error('the server build failed (scripts/build-server.mjs)');
  return startProcess(
    ['packages/server/dist/main.mjs'],
    {
      JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
      TOTP_KEY: 'bench-totp-key-that-is-long-enough-0123456789',
      SEED_KEY: BENCH_SEED_KEY,
      LOG_KEY: 'bench-log-key-that-is-long-enough-0123456789',
      // LOT-DRAW-1 unless a bench names a beacon (bench/games.ts runs its own test beacon).
      DRAW_BEACON: 'off',
      ...env,
    },
    /LOT is running on (http:\/\/\S+)/,
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
  );
}

/** A bare anchor server from bench/anchor-server.ts (`hello` or `static ROOT`). */
export function startAnchor(...args: string[]): Promise<Server> {
  return startProcess(['bench/anchor-server.ts', ...args], {}, /listening on (http:\/\/\S+)/);
}

/**
 * The headers Chromium adds to every call of the web client (lib/api-client.ts adds the bearer
 * token, content-type with a body and Idempotency-Key on money calls): the server parses them all,
 * so the bench sends them too. Same-origin fetches: no Origin on GETs, no cookies on /api calls.
 */
export const BROWSER_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  referer: 'http://127.0.0.1/',
  'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
};

/** The commit the bench runs (with "+changes" when the work tree differs from it). */
export function commit(): string {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  return `${head || 'unknown'}${dirty ? '+changes' : ''}`;
}

/** The server version of the PostgreSQL at `url` ("15.14"). */
export async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return rows[0]?.v ?? '?';
  } finally {
    await client.end();
  }
}

/** The 1-minute load average every `ms` until stopped: what else the machine ran during a measurement. */
export function sampleLoad(ms = 5_000): { stop: () => number[] } {
  const samples = [os.loadavg()[0] ?? 0];
  const timer = setInterval(() => samples.push(os.loadavg()[0] ?? 0), ms);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(os.loadavg()[0] ?? 0);
      return samples;
    },
  };
}

export async function api<T>(base: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export type Timing = { seconds: number; warmup: number; connections: number };

/** Seconds per measured run (BENCH_SECONDS), after a warm-up (BENCH_WARMUP), 10 connections. */
export const TIMING: Timing = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
};

/** `requests` counts the measured run; `allRequests` the warm-up too (for CPU per request). */
export type Load = { rate: number; p50: number; p99: number; errors: number; requests: number; allRequests: number };

/** autocannon without pipelining: a warm-up run that is thrown away, then the measured run. */
export async function load(
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
  timing: Timing = TIMING,
): Promise<Load> {
  const warmup =
    timing.warmup > 0
      ? await autocannon({ ...options, connections: timing.connections, duration: timing.warmup })
      : undefined;
  const result = await autocannon({ ...options, connections: timing.connections, duration: timing.seconds });
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
    allRequests: result.requests.total + (warmup?.requests.total ?? 0),
  };
}

/**
 * Ours and the anchor measured turn about (ours, anchor, ours, anchor…), BENCH_ROUNDS rounds, and
 * the best of each kept: on a shared machine the best run is the one least disturbed.
 */
export async function turnAbout<A, B>(
  ours: () => Promise<A>,
  anchor: () => Promise<B>,
  rate: { ours: (a: A) => number; anchor: (b: B) => number },
): Promise<{ ours: A; anchor: B; runs: { ours: number[]; anchor: number[] } }> {
  let bestOurs: A | undefined;
  let bestAnchor: B | undefined;
  const runs = { ours: [] as number[], anchor: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const a = await ours();
    runs.ours.push(rate.ours(a));
    if (bestOurs === undefined || rate.ours(a) > rate.ours(bestOurs)) bestOurs = a;
    const b = await anchor();
    runs.anchor.push(rate.anchor(b));
    if (bestAnchor === undefined || rate.anchor(b) > rate.anchor(bestAnchor)) bestAnchor = b;
  }
  if (bestOurs === undefined || bestAnchor === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
  return { ours: bestOurs, anchor: bestAnchor, runs };
}

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** Runs `op` from `workers` loops at once for `seconds`; completed operations per second. */
export async function loop(op: () => Promise<unknown>, seconds: number, workers = 1): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        await op();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const TICK_MS = 1000 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);

/** CPU time (user + system, ms) of a process, plus that of its children it has waited for. */
export function cpuMs(pid: number | 'self'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // After "pid (comm) ": state is field 3, utime/stime/cutime/cstime are fields 14–17.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) * TICK_MS;
  } catch {
    return Number.NaN; // not on this machine (a remote database) or gone
  }
}

/** The CPU time of a PostgreSQL server: the postmaster, its finished backends and its live ones. */
export function postgresCpuMs(postmaster: number): number {
  let total = cpuMs(postmaster);
  try {
    for (const child of readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').split(' ')) {
      const ms = child.trim() ? cpuMs(Number(child)) : Number.NaN;
      if (!Number.isNaN(ms)) total += ms; // NaN: a backend that ended since the listing
    }
  } catch {
    return Number.NaN;
  }
  return total;
}

/** The postmaster of the PostgreSQL at `url` when it runs on this machine (for its CPU time). */
export async function postmasterOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Read while the backend is alive: its parent is the postmaster.
    return Number(readFileSync(`/proc/${rows[0]?.pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) || 0;
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

export type Cpu = { server: number; client: number; postgres: number };

/** Runs `work` and answers with the CPU time each party spent on it (ms; NaN where unknown). */
export async function measureCpu<T>(
  work: () => Promise<T>,
  pids: { server?: number; postmaster: number },
): Promise<{ result: T; cpu: Cpu }> {
  const read = () => ({
    server: pids.server ? cpuMs(pids.server) : 0,
    client: cpuMs('self'),
    postgres: pids.postmaster ? postgresCpuMs(pids.postmaster) : Number.NaN,
  });
  const before = read();
  const result = await work();
  const after = read();
  return {
    result,
    cpu: {
      server: after.server - before.server,
      client: after.client - before.client,
      postgres: after.postgres - before.postgres,
    },
  };
}

/** "server 0.52 + client 0.20 + PostgreSQL 0.31 ms CPU" per operation. */
export function cpuPer(cpu: Cpu, operations: number): string {
  const per = (ms: number) => (ms / Math.max(1, operations)).toFixed(2);
  const parts = [
    ...(cpu.server ? [`server ${per(cpu.server)}`] : []),
    `client ${per(cpu.client)}`,
    ...(Number.isNaN(cpu.postgres) ? [] : [`PostgreSQL ${per(cpu.postgres)}`]),
  ];
  return `${parts.join(' + ')} ms CPU each`;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export const median = (values: number[]) => percentile(values, 50);

/** A rate row: ours ÷ anchor against a minimum ratio. */
export function rateRow(
  scenario: string,
  ours: Load | number,
  anchor: number,
  min: number,
  extra: { anchorNote?: string; runs?: unknown } = {},
): Row {
  const rate = typeof ours === 'number' ? ours : ours.rate;
  const ratio = anchor > 0 ? rate / anchor : 0;
  const detail = typeof ours === 'number' ? '' : ` (p99 ${ours.p99} ms${ours.errors ? `, ${ours.errors} errors` : ''})`;
  return {
    scenario,
    ours: `${rate.toFixed(0)}/s${detail}`,
    anchor: `${anchor.toFixed(0)}/s${extra.anchorNote ?? ''}`,
    ratio: ratio.toFixed(2),
    target: `≥ ${min}`,
    met: ratio >= min && (typeof ours === 'number' || ours.errors === 0),
    raw: { ours, anchor, runs: extra.runs },
  };
}

/** Runs pgbench with a custom script; returns transactions per second (excluding connection time). */
export function pgbench(
  url: string,
  script: string,
  options: { clients: number; seconds: number; vars: Record<string, number> },
) {
  const u = new URL(url);
  const args = [
    '-n',
    // The server runs its money statement as a named prepared statement, so pgbench does too.
    '-M',
    'prepared',
    '-f',
    script,
    '-c',
    String(options.clients),
    '-j',
    '2',
    '-T',
    String(options.seconds),
    '-h',
    u.hostname,
    '-p',
    u.port,
    '-U',
    decodeURIComponent(u.username),
    ...Object.entries(options.vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    u.pathname.slice(1),
  ];
  const result = spawnSync('pgbench', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pgbench failed:\n${result.stderr}\n${result.stdout}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout);
  const failed = /number of failed transactions: (\d+)/.exec(result.stdout);
  return { tps: Number(tps?.[1] ?? 0), failed: Number(failed?.[1] ?? 0) };
}
