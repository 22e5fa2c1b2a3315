import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/server-process.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';

/**
 * Issue 34: docs/deploy.md works as written. Its `sh deploy-test` blocks run in order, in bash,
 * with this test's values for the `LOT_…` variables of the first one (a fresh database, a folder
 * for /etc/lot, three free ports): the environment file, `npm run db:migrate` (twice at once: the
 * second waits on the first's lock), the health checks, and the rolling restart. There is no
 * systemd here: the processes start as the guide's `lot@.service` says (its WorkingDirectory,
 * EnvironmentFile, Environment and ExecStart, `%i` the port), and the rolling restart's
 * `systemctl restart lot@PORT` is a stand-in that stops the process with SIGTERM and starts it
 * that way again. deploy/haproxy.cfg passes `haproxy -c` with a self-signed certificate in the
 * place of the real one.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const GUIDE = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');

/** The guide's blocks marked for the test, in order. */
function testBlocks(): string[] {
  return [...GUIDE.matchAll(/```sh deploy-test\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** The unit's [Service] settings (the last of a name wins, as in systemd for these). */
function unit(): Record<string, string> {
  const text = /```ini\n# \/etc\/systemd\/system\/lot@\.service\n([\s\S]*?)```/.exec(GUIDE)?.[1];
  if (!text) throw new Error('docs/deploy.md has no lot@.service unit');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

function bash(script: string, env: Record<string, string> = {}) {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

describe.skipIf(TEST_DB !== 'postgres')('docs/deploy.md as written (PostgreSQL only: skipped on PGlite)', () => {
  let dir = '';
  let drop = async () => {};
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lot-deploy-'));
  });
  afterAll(async () => {
    // Every process the guide started (pid files of the stand-in systemd).
    await bash(`for f in "${dir}"/run/*.pid; do [ -e "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true; done`);
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the environment, migrations run twice at once, three processes as the unit starts them, health checks and a rolling restart', async () => {
    const database = await freshPostgres();
    drop = database.drop;
    const ports = [await freePort(), await freePort(), await freePort()];
    const values: Record<string, string> = {
      LOT_HOME: ROOT.replace(/\/$/, ''),
      LOT_ETC: join(dir, 'etc'),
      LOT_DATABASE_URL: database.url,
      LOT_PUBLIC_URL: 'http://127.0.0.1:8080',
      LOT_PORTS: `"${ports.join(' ')}"`,
    };
    const [settings = '', ...blocks] = testBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const named = [...settings.matchAll(/^(LOT_\w+)=/gm)].map((match) => match[1]);
    expect(named.sort()).toEqual(Object.keys(values).sort());
    const vars = settings.replace(/^(LOT_\w+)=.*$/gm, (_, name: string) => `${name}=${values[name]}`);
    const [envFile = '', migrate = '', health = '', rolling = ''] = blocks;
    expect(migrate).toContain('npm run db:migrate');
    expect(rolling).toContain('systemctl restart');

    // The environment file.
    const made = await bash(`${vars}\n${envFile}`);
    expect(made.code, made.output).toBe(0);
    const env = readFileSync(join(dir, 'etc/lot.env'), 'utf8');
    expect(env).toContain(`DATABASE_URL=${database.url}`);
    expect(env).toMatch(/^SEED_KEY=[0-9a-f]{64}$/m);

    // Migrations once per release: two at once, one waits for the other's lock, both succeed.
    const migrations = await Promise.all([bash(`${vars}\n${migrate}`), bash(`${vars}\n${migrate}`)]);
    for (const run of migrations) expect(run.code, run.output).toBe(0);

    // The unit, as systemd would start it, and a stand-in `systemctl restart lot@PORT`.
    const service = unit();
    const substitute = (text: string) =>
      text.replaceAll('/srv/lot/current', values.LOT_HOME ?? '').replaceAll('/etc/lot', values.LOT_ETC ?? '');
    expect(service.ExecStart).toBeDefined();
    const run = join(dir, 'run');
    const bin = join(dir, 'bin');
    mkdirSync(run);
    mkdirSync(bin);
    const environment = (service.Environment ?? '').replaceAll('%i', '$1');
    writeFileSync(
      join(bin, 'lot-unit-start'),
      [
        '#!/usr/bin/env bash',
        'set -eu',
        `cd "${substitute(service.WorkingDirectory ?? '')}"`,
        `set -a; . "${substitute(service.EnvironmentFile ?? '')}"; export ${environment}; set +a`,
        `nohup ${service.ExecStart?.replaceAll('%i', '$1')} >"${run}/$1.log" 2>&1 &`,
        `echo $! >"${run}/$1.pid"`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(bin, 'systemctl'),
      [
        '#!/usr/bin/env bash',
        '# Stand-in for systemd: `systemctl restart lot@PORT` stops the process (SIGTERM) and starts it as the unit does.',
        'set -eu',
        '[ "$1" = restart ] || { echo "stand-in systemctl: restart only" >&2; exit 1; }',
        'port="${2#lot@}"',
        `pid=$(cat "${run}/$port.pid")`,
        'kill -TERM "$pid" 2>/dev/null || true',
        'while [ -e "/proc/$pid" ] && ! grep -q "^State:.*Z" "/proc/$pid/status" 2>/dev/null; do sleep 0.1; done',
        `exec "${bin}/lot-unit-start" "$port"`,
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, 'lot-unit-start'), 0o755);
    chmodSync(join(bin, 'systemctl'), 0o755);
    for (const port of ports) expect((await bash(`"${bin}/lot-unit-start" ${port}`)).code).toBe(0);

    const path = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const checked = await bash(`${vars}\n${health}`, path);
    expect(checked.code, checked.output + ports.map((p) => readLog(run, p)).join('\n')).toBe(0);
    expect(checked.output.match(/"status":"ok"/g)?.length ?? 0).toBeGreaterThanOrEqual(3);

    const pidsBefore = ports.map((port) => readFileSync(join(run, `${port}.pid`), 'utf8'));
    const started = performance.now();
    const rolled = await bash(`${vars}\n${rolling}`, path);
    expect(rolled.code, rolled.output + ports.map((p) => readLog(run, p)).join('\n')).toBe(0);
    const pidsAfter = ports.map((port) => readFileSync(join(run, `${port}.pid`), 'utf8'));
    for (const [i, pid] of pidsAfter.entries()) expect(pid).not.toBe(pidsBefore[i]);
    // Each old process stopped on SIGTERM by itself, and every new one answers.
    for (const pid of pidsBefore) expect(existsSync(`/proc/${pid.trim()}/cmdline`) && isLive(pid)).toBe(false);
    const again = await bash(`${vars}\n${health}`, path);
    expect(again.code, again.output).toBe(0);
    console.log(
      `deploy guide: ${blocks.length + 1} blocks run; rolling restart of 3 processes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 240_000);

  it('npm start on a built release builds nothing, writes nothing into packages/web/dist and answers /api/health within 10 s', async () => {
    const database = await freshPostgres();
    const port = await freePort();
    // As a shell would run it: Vitest's NODE_ENV=test would ask for React's development build.
    const { NODE_ENV: _vitest, ...shell } = process.env;
    const env = {
      ...shell,
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      TOTP_KEY: randomBytes(32).toString('hex'),
      SEED_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DRAW_BEACON: 'off',
    };
    const dist = join(ROOT, 'packages/web/dist');
    try {
      // The release's build: by this start if packages/web/dist is not built from these sources.
      const first = await npmStart(env, port, 180_000);
      expect(first.ms, first.output).toBeLessThan(Infinity);
      const built = filesOf(dist);
      expect(Object.keys(built)).toContain('index.html');

      const second = await npmStart(env, port, 10_000);
      expect(second.ms, second.output).toBeLessThan(Infinity);
      console.log(`npm start on a built release: /api/health answered after ${(second.ms / 1000).toFixed(1)} s`);
      expect(second.output).toContain('not building it again');
      expect(second.ms).toBeLessThan(10_000);
      // The same folder and the same files, none of them written (inode, size and mtime).
      expect(filesOf(dist)).toEqual(built);
    } finally {
      await database.drop();
    }
  }, 240_000);

  it('deploy/haproxy.cfg passes haproxy -c (a self-signed certificate in the real one’s place)', async () => {
    const pem = join(dir, 'lot.pem');
    const made = await bash(
      `openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=lot.example.com -days 1 -keyout "${pem}.key" -out "${pem}.crt" 2>/dev/null && cat "${pem}.crt" "${pem}.key" > "${pem}"`,
    );
    expect(made.code, made.output).toBe(0);
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8')
        .replace('/etc/haproxy/certs/lot.pem', pem)
        .split('\n')
        .filter((line) => !/^\s*(user|group|chroot) /.test(line))
        .join('\n'),
    );
    const checked = await bash(`PATH="$PATH:/usr/sbin" haproxy -c -f "${cfg}"`);
    expect(checked.code, checked.output).toBe(0);
  });
});

/**
 * `npm start` in the repository, as a person runs it, until its server answers /api/health (or
 * `within` ms pass: Infinity), then SIGTERM to its process group (npm, the shell and node) until
 * it has ended: how long it took to answer, and what it wrote.
 */
async function npmStart(env: NodeJS.ProcessEnv, port: number, within: number) {
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let ms = Infinity;
  while (performance.now() - started < within && child.exitCode === null) {
    const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (health?.ok) {
      ms = performance.now() - started;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  await exited;
  return { ms, output };
}

/** Every file under a folder (and the folder itself), with what a write would change. */
function filesOf(dir: string): Record<string, string> {
  const stamp = (path: string) => {
    const stat = statSync(path);
    return `${stat.ino} ${stat.size} ${stat.mtimeMs}`;
  };
  const files: Record<string, string> = { '.': stamp(dir) };
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) files[name] = stamp(join(dir, name));
  return files;
}

function readLog(run: string, port: number): string {
  try {
    return `--- ${port}:\n${readFileSync(join(run, `${port}.log`), 'utf8')}`;
  } catch {
    return '';
  }
}

function isLive(pid: string): boolean {
  try {
    return !/^State:.*Z/m.test(readFileSync(`/proc/${pid.trim()}/status`, 'utf8'));
  } catch {
    return false;
  }
}
