import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/server-process.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';

/**
 * Issues 34 and 43: docs/deploy.md works as written. Its `sh deploy-test` blocks run in order, in
 * bash, with this test's values for the `LOT_…` variables of the first one (a fresh database, a
 * folder for /etc/lot, three free ports, a backup folder): the environment file, the checkpoint
 * signer's environment file, `npm run db:migrate` (twice at once: the second waits on the first's
 * lock), the health checks, the rolling restart and the backup. There is no systemd here: the
 * processes start as the guide's `lot@.service` and its drop-ins say, their environment built as
 * systemd builds it (`systemdService`, checked on its own below), `%i` the port; the rolling
 * restart's `systemctl restart lot@PORT` is a stand-in that stops the process with SIGTERM and
 * starts it that way again. deploy/haproxy.cfg passes `haproxy -c` with a self-signed certificate
 * in the place of the real one, deploy/pgbouncer.ini runs PgBouncer in front of the test's
 * PostgreSQL, and the `current` link is switched as the guide says.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const GUIDE = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');

/** The guide's blocks marked for the test, in order. */
function testBlocks(): string[] {
  return [...GUIDE.matchAll(/```sh deploy-test\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** A unit file or drop-in of the guide: where it goes, and its `Name=value` lines in order. */
type UnitFile = { path: string; lines: [string, string][] };

/** The guide's `ini` blocks that start with a path under /etc/systemd/system/: lot@.service and its drop-ins. */
function guideUnitFiles(): UnitFile[] {
  return [...GUIDE.matchAll(/```ini\n# (\/etc\/systemd\/system\/[^\n]+)\n([\s\S]*?)```/g)].map((match) => ({
    path: match[1] ?? '',
    lines: (match[2] ?? '')
      .split('\n')
      .filter((line) => /^[A-Za-z]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  }));
}

/**
 * `lot@INSTANCE.service` as systemd reads it (systemd.unit(5), systemd.exec(5)): the unit
 * `lot@.service`, then its drop-ins from `lot@.service.d/` and `lot@INSTANCE.service.d/` in the
 * order of their file names. A later setting replaces an earlier one, except `Environment=` and
 * `EnvironmentFile=`, which add up. The environment: every `Environment=` assignment in order (a
 * later one wins), then every `EnvironmentFile=` in order, whose variables override those of
 * `Environment=` and of the files before it. `%i` is the instance.
 */
function systemdService(files: UnitFile[], instance: string) {
  const unit = files.find((file) => file.path === '/etc/systemd/system/lot@.service');
  if (!unit) throw new Error('docs/deploy.md has no lot@.service unit');
  const dropIns = files
    .filter((file) =>
      [`/etc/systemd/system/lot@.service.d/`, `/etc/systemd/system/lot@${instance}.service.d/`].some(
        (dir) => file.path.startsWith(dir) && file.path.endsWith('.conf'),
      ),
    )
    .sort((a, b) => basename(a.path).localeCompare(basename(b.path)));
  const settings: Record<string, string> = {};
  const environment: string[] = [];
  const environmentFiles: string[] = [];
  for (const [name, raw] of [unit, ...dropIns].flatMap((file) => file.lines)) {
    const value = raw.replaceAll('%i', instance);
    if (name === 'Environment') {
      if (/["'\\]/.test(value)) throw new Error(`quoted Environment= is not understood here: ${value}`);
      environment.push(...value.split(/\s+/).filter(Boolean));
    } else if (name === 'EnvironmentFile') environmentFiles.push(value);
    else settings[name] = value;
  }
  return { settings, environment, environmentFiles };
}

/** A bash script that starts the service as systemd would: its folder, its environment, its command. */
function startScript(service: ReturnType<typeof systemdService>, paths: (text: string) => string, log: string) {
  return [
    'set -eu',
    `cd "${paths(service.settings.WorkingDirectory ?? '')}"`,
    // Environment= first; the files after it override it, and a later file an earlier one.
    ...service.environment.map((assignment) => `export ${assignment}`),
    ...service.environmentFiles.map((file) =>
      file.startsWith('-')
        ? `if [ -e "${paths(file.slice(1))}" ]; then set -a; . "${paths(file.slice(1))}"; set +a; fi`
        : `set -a; . "${paths(file)}"; set +a`,
    ),
    `exec ${service.settings.ExecStart ?? 'false'} >"${log}" 2>&1`,
  ].join('\n');
}

/** A process's environment, as /proc shows it. */
function environmentOf(pid: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid.trim()}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
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

  it('the stand-in applies the environment as systemd does: files over Environment=, later over earlier, drop-ins by name', async () => {
    const files: UnitFile[] = [
      {
        path: '/etc/systemd/system/lot@.service',
        lines: [
          ['ExecStart', '/usr/bin/env'],
          ['WorkingDirectory', dir],
          ['Environment', 'A=unit B=unit PORT=%i'],
          ['EnvironmentFile', `${dir}/first.env`],
          ['Environment', 'C=unit'],
        ],
      },
      { path: '/etc/systemd/system/lot@7.service.d/20-late.conf', lines: [['EnvironmentFile', `${dir}/second.env`]] },
      { path: '/etc/systemd/system/lot@.service.d/10-early.conf', lines: [['Environment', 'B=dropin C=dropin']] },
      { path: '/etc/systemd/system/lot@8.service.d/30-other.conf', lines: [['Environment', 'A=other']] },
    ];
    writeFileSync(join(dir, 'first.env'), 'A=first\nC=first\n');
    writeFileSync(join(dir, 'second.env'), 'A=second\n');
    const log = join(dir, 'env.log');
    const ran = await bash(startScript(systemdService(files, '7'), (text) => text, log));
    expect(ran.code, ran.output).toBe(0);
    const seen = Object.fromEntries(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => /^(A|B|C|PORT)=/.test(line))
        .map((line) => line.split('=')),
    );
    expect(seen).toEqual({ A: 'second', B: 'dropin', C: 'first', PORT: '7' });
  });

  it('the environment, migrations run twice at once, three processes as the unit and its drop-in start them, health checks, a rolling restart and a backup', async () => {
    const database = await freshPostgres();
    drop = database.drop;
    const ports = [await freePort(), await freePort(), await freePort()];
    const values: Record<string, string> = {
      LOT_HOME: ROOT.replace(/\/$/, ''),
      LOT_ETC: join(dir, 'etc'),
      LOT_DATABASE_URL: database.url,
      LOT_PUBLIC_URL: 'http://127.0.0.1:8080',
      LOT_PORTS: `"${ports.join(' ')}"`,
      LOT_BACKUPS: join(dir, 'backups'),
    };
    const stateDir = join(dir, 'var-lib-lot');
    const [settings = '', ...blocks] = testBlocks();
    const named = [...settings.matchAll(/^(LOT_\w+)=/gm)].map((match) => match[1]);
    expect(named.sort()).toEqual(Object.keys(values).sort());
    // The guide's own ports, which its drop-in's folder names (lot@3001.service.d): ours in their places.
    const guidePorts = /^LOT_PORTS="([\d ]+)"$/m.exec(settings)?.[1]?.split(' ') ?? [];
    expect(guidePorts).toHaveLength(ports.length);
    const vars = settings.replace(/^(LOT_\w+)=.*$/gm, (_, name: string) => `${name}=${values[name]}`);
    const block = (needle: string) => {
      const found = blocks.filter((text) => text.includes(needle));
      expect(found, needle).toHaveLength(1);
      return found[0] ?? '';
    };
    const envFile = block('cat > "$LOT_ETC/lot.env"');
    const signer = block('checkpoints.env');
    const migrate = block('npm run db:migrate');
    const health = block('/api/ready');
    const rolling = block('systemctl restart');
    const backup = block('npm run backup');
    expect(blocks).toHaveLength(6);

    // The environment files; DATA_DIR (systemd's StateDirectory) in the test's folder.
    const made = await bash(`${vars}\n${envFile.replaceAll('/var/lib/lot', stateDir)}\n${signer}`);
    expect(made.code, made.output).toBe(0);
    const env = readFileSync(join(dir, 'etc/lot.env'), 'utf8');
    expect(env).toContain(`DATABASE_URL=${database.url}`);
    expect(env).toMatch(/^SEED_KEY=[0-9a-f]{64}$/m);
    expect(env).toMatch(/^LOG_KEY=[0-9a-f]{64}$/m);
    const adminPassword = /^ADMIN_PASSWORD=(\S+)$/m.exec(env)?.[1] ?? '';
    expect(adminPassword).toMatch(/^[0-9a-f]{24}$/);

    // Migrations once per release: two at once, one waits for the other's lock, both succeed.
    const migrations = await Promise.all([bash(`${vars}\n${migrate}`), bash(`${vars}\n${migrate}`)]);
    for (const run of migrations) expect(run.code, run.output).toBe(0);

    // The unit and its drop-ins, as systemd would start each instance, and a stand-in `systemctl restart lot@PORT`.
    const files = guideUnitFiles();
    const paths = (text: string) =>
      text.replaceAll('/srv/lot/current', values.LOT_HOME ?? '').replaceAll('/etc/lot', values.LOT_ETC ?? '');
    const run = join(dir, 'run');
    const bin = join(dir, 'bin');
    mkdirSync(run);
    mkdirSync(bin);
    for (const [i, port] of ports.entries()) {
      const service = systemdService(files, String(port));
      // The drop-ins the guide wrote for its own port in this place.
      const own = systemdService(
        files.map((file) => ({
          ...file,
          path: file.path.replace(`lot@${guidePorts[i]}.service.d`, `lot@${port}.service.d`),
        })),
        String(port),
      );
      expect(service.settings.ExecStart).toBeDefined();
      writeFileSync(join(bin, `lot-unit-${port}`), startScript(own, paths, join(run, `${port}.log`)));
    }
    writeFileSync(
      join(bin, 'lot-unit-start'),
      [
        '#!/usr/bin/env bash',
        'set -eu',
        `nohup bash "${bin}/lot-unit-$1" >/dev/null 2>&1 &`,
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

    // On a machine this busy a first start may take longer than the guide's 30 s of curl retries.
    for (
      let waited = 0;
      waited < 120_000 && !ports.every((p) => readLog(run, p).includes('LOT is running'));
      waited += 250
    )
      await new Promise((resolve) => setTimeout(resolve, 250));
    const path = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const checked = await bash(`${vars}\n${health}`, path);
    expect(checked.code, checked.output + ports.map((p) => readLog(run, p)).join('\n')).toBe(0);
    expect(
      checked.output.match(/"status":"ok"/g)?.length ?? 0,
      checked.output + ports.map((p) => readLog(run, p)).join('\n'),
    ).toBeGreaterThanOrEqual(3);

    // One process signs the audit checkpoints (its drop-in's file wins over lot.env), the others do not.
    const minutes = ports.map((port) => environmentOf(readFileSync(join(run, `${port}.pid`), 'utf8')));
    expect(minutes.map((e) => [e.PORT, e.AUDIT_CHECKPOINT_MINUTES])).toEqual(
      ports.map((port, i) => [String(port), i === 0 ? '60' : '0']),
    );
    // The signer made its key in DATA_DIR, which only its owner may enter.
    expect(existsSync(join(stateDir, 'checkpoint-key'))).toBe(true);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);

    // The first admin has the environment file's password, and no process printed one.
    const signin = await fetch(`http://127.0.0.1:${ports[1]}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: adminPassword }),
    });
    expect(signin.status).toBe(200);
    for (const port of ports) expect(readLog(run, port)).not.toContain('Admin login');

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
    const rolledMs = performance.now() - started;

    // The backup into its own folder, which the block makes: both its owner's only.
    const backedUp = await bash(`${vars}\n${backup}`);
    expect(backedUp.code, backedUp.output).toBe(0);
    const dumps = readdirSync(join(dir, 'backups'));
    expect(dumps).toHaveLength(1);
    expect(statSync(join(dir, 'backups')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'backups', dumps[0] ?? '')).mode & 0o777).toBe(0o600);
    console.log(
      `deploy guide: ${blocks.length + 1} blocks run; rolling restart of 3 processes in ${(rolledMs / 1000).toFixed(1)} s`,
    );
  }, 300_000);

  it('the switch of the current link: one rename, the new release in place, nothing left in the old one', async () => {
    const text = /```sh deploy-switch\n([\s\S]*?)```/.exec(GUIDE)?.[1] ?? '';
    expect(text).toContain('mv -T');
    const srv = join(dir, 'srv-lot');
    const release = /\/srv\/lot\/releases\/([\w.-]+)/.exec(text)?.[1] ?? '';
    mkdirSync(join(srv, 'releases', 'old'), { recursive: true });
    mkdirSync(join(srv, 'releases', release), { recursive: true });
    symlinkSync(join(srv, 'releases', 'old'), join(srv, 'current'));
    const switched = await bash(text.replaceAll('/srv/lot', srv));
    expect(switched.code, switched.output).toBe(0);
    expect(readlinkSync(join(srv, 'current'))).toBe(join(srv, 'releases', release));
    expect(readdirSync(join(srv, 'releases', 'old'))).toEqual([]);
    expect(readdirSync(srv).sort()).toEqual(['current', 'releases']);
  });

  it('deploy/pgbouncer.ini runs PgBouncer in transaction mode in front of PostgreSQL (the test’s addresses and trust in its place)', async () => {
    const database = await freshPostgres();
    try {
      const upstream = new URL(database.url);
      const port = await freePort();
      const users = join(dir, 'pgbouncer-users.txt');
      writeFileSync(
        users,
        `"${decodeURIComponent(upstream.username || 'postgres')}" "${decodeURIComponent(upstream.password)}"\n`,
      );
      const file = readFileSync(join(ROOT, 'deploy/pgbouncer.ini'), 'utf8');
      expect(file).toMatch(/^pool_mode = transaction$/m);
      const ini = join(dir, 'pgbouncer.ini');
      writeFileSync(
        ini,
        file
          .replace(
            /^lot = host=\S+ port=\d+ dbname=lot$/m,
            `lot = host=${upstream.hostname} port=${upstream.port || 5432} dbname=${upstream.pathname.slice(1)}`,
          )
          .replace(/^listen_port = 6432$/m, `listen_port = ${port}`)
          .replace(/^auth_type = .*$/m, 'auth_type = trust')
          .replace(/^auth_file = .*$/m, `auth_file = ${users}`)
          // Its log on stderr, and no pid file: it runs in the foreground, as the postgres user when run as root.
          .replace(/^logfile = .*$/m, 'logfile =')
          .replace(/^pidfile = .*$/m, 'pidfile =') + (process.getuid?.() === 0 ? 'user = postgres\n' : ''),
      );
      const bouncer = spawn('/usr/sbin/pgbouncer', [ini], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      bouncer.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        const pooled = new URL(database.url);
        pooled.port = String(port);
        pooled.pathname = '/lot';
        let answered = false;
        for (let attempt = 0; attempt < 50 && !answered; attempt++) {
          const client = new pg.Client({ connectionString: pooled.toString() });
          try {
            await client.connect();
            const result = await client.query<{ name: string }>('SELECT current_database() AS name');
            expect(result.rows[0]?.name).toBe(upstream.pathname.slice(1));
            answered = true;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100));
          } finally {
            await client.end().catch(() => undefined);
          }
        }
        expect(answered, output).toBe(true);
      } finally {
        if (bouncer.exitCode === null && bouncer.signalCode === null) {
          bouncer.kill('SIGTERM');
          await new Promise((resolve) => bouncer.once('exit', resolve));
        }
      }
    } finally {
      await database.drop();
    }
  });

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
      LOG_KEY: randomBytes(32).toString('hex'),
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
