import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));

/** BENCH_DATABASE_URL, or a throwaway PostgreSQL started for this run and stopped at exit. */
export function benchPostgres(): { url: string; stop: () => void } {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: () => {} };
  const started = spawnSync('bash', [`${root}/scripts/pg-temp.sh`, 'start'], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`could not start PostgreSQL:\n${started.stderr}`);
  const vars = Object.fromEntries([...started.stdout.matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  return {
    url: vars.TEST_DATABASE_URL ?? '',
    stop: () => spawnSync('bash', [`${root}/scripts/pg-temp.sh`, 'stop', vars.PG_TEMP_DIR ?? '']),
  };
}

/** A fresh database on the server at `base`; returns its URL. */
export async function freshDatabase(base: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts the real server (packages/server/src/main.ts) and resolves with its base URL. */
export function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', `${root}/packages/server/src/main.ts`], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LOT is running on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
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

/** Runs pgbench with a custom script; returns transactions per second (excluding connection time). */
export function pgbench(
  url: string,
  script: string,
  options: { clients: number; seconds: number; vars: Record<string, number> },
) {
  const u = new URL(url);
  const args = [
    '-n',
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
