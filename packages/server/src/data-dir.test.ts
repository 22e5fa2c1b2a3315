import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPgliteDirectory } from './db/backup.ts';
import { callServer, exitOf, MAIN_FILE, nodeArgs, startServer, type Started } from './test/server-process.ts';
import { TEST_DB } from './test/test-app.ts';

/**
 * The embedded database's data directory as an operator meets it, on the real entry point and the
 * real npm scripts in child processes: one process at a time has DATA_DIR/db (decision 043), and
 * a restore without the key files refuses to start naming them (decision 042).
 */
const scripts = (name: string) => fileURLToPath(new URL(`./cli/${name}`, import.meta.url));

/** Every process a test started: none outlives the file, even when it should have refused and did not. */
const children: ChildProcess[] = [];

/** Runs a script as npm runs it, with this environment: its exit code and everything it printed. */
function run(file: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs(file), ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DRAW_BEACON: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return exitOf(child).then((code) => ({ code, stdout, stderr }));
}

const PASSWORD = 'admin-password-1';
const root = mkdtempSync(join(tmpdir(), 'lot-data-dir-'));
const dataDir = join(root, 'data');
const restored = join(root, 'restored');
let server: Started;
let pid = 0;
let admin = '';
let secret = '';
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(TEST_DB !== 'pglite')('one DATA_DIR, one process; the keys with the data (pglite)', () => {
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
    pid = server.child.pid ?? 0;
    const signin = await callServer(server.url, 'POST', '/api/auth/signin', null, {
      username: 'admin',
      password: PASSWORD,
    });
    admin = String(signin.json.accessToken);
  }, 120_000);
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('while a server writes, ledger:check and audit:verify refuse without touching the database, and so does a second server', async () => {
    const created = await callServer(server.url, 'POST', '/api/users', admin, {
      username: 'keyed',
      password: 'secret123',
      fullName: 'Keyed Superagent',
      role: 'superagent',
    });
    expect(created.status).toBe(201);
    const keyed = Number(created.json.id);
    // Two-factor sign-in for `keyed`: its secret is sealed with DATA_DIR/totp-key.
    const token = String(
      (await callServer(server.url, 'POST', '/api/auth/signin', null, { username: 'keyed', password: 'secret123' }))
        .json.accessToken,
    );
    secret = String((await callServer(server.url, 'POST', '/api/auth/two-factor/enrol', token)).json.secret);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await callServer(server.url, 'POST', '/api/auth/two-factor/confirm', token, { code })).status).toBe(200);

    // Live writes the whole time the commands try.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        const topup = await callServer(server.url, 'POST', '/api/balance/topup', admin, {
          userId: keyed,
          amount: '1.00',
        });
        expect(topup.status).toBe(200);
        writes += 1;
      }
    })();
    const env = { DATA_DIR: dataDir };
    const busy = `A LOT server (pid ${pid}) has DATA_DIR ${dataDir} open: stop it first`;
    const copy = ', or check a copy (npm run backup, then npm run restore into another DATA_DIR).';
    const [check1, check2, audit, second] = await Promise.all([
      run(scripts('ledger-check-cli.ts'), env),
      run(scripts('ledger-check-cli.ts'), env),
      run(scripts('audit-verify-cli.ts'), env),
      run(MAIN_FILE, { ...env, PORT: '0' }),
    ]);
    writing = false;
    await writer;
    expect(writes).toBeGreaterThan(0);
    for (const refused of [check1, check2, audit]) {
      expect(refused.stderr.trim()).toBe(busy + copy);
      expect(refused.stdout).toBe('');
      expect(refused.code).toBe(2);
    }
    expect(second.stderr.trim()).toBe(`${busy}.`);
    expect(second.code).toBe(1);
    // The server went on, its lock untouched.
    expect((await callServer(server.url, 'GET', '/api/balance', admin)).status).toBe(200);
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(true);
  }, 120_000);

  it('a server that stops lets go of the directory', async () => {
    server.child.kill('SIGTERM');
    expect(await exitOf(server.child)).toBe(0);
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(false);
  }, 60_000);

  it('a restore without the key files: the server refuses naming each and creates none; with them a code signs in', async () => {
    const backup = join(root, 'lot.tar.gz');
    writeFileSync(backup, Buffer.from(await (await dumpPgliteDirectory(join(dataDir, 'db'))).arrayBuffer()));
    const restore = await run(scripts('restore-cli.ts'), { DATA_DIR: restored }, [backup]);
    expect(restore.code).toBe(0);
    const steps = restore.stdout.split('\n').filter((line) => /^ {2}\d\. /.test(line));
    const expected = [
      '1. put back the key files',
      '2. npm run ledger:check',
      '3. npm run audit:verify',
      '4. npm start',
      '5. sign in as the admin',
    ];
    expect(steps.map((line, i) => line.trim().startsWith(expected[i] ?? '?'))).toEqual(expected.map(() => true));
    expect(steps[0]).toContain('totp-key, seed-key, log-key and jwt-secret');

    const refused = await run(MAIN_FILE, { DATA_DIR: restored, PORT: '0' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `DATA_DIR/totp-key (${join(restored, 'totp-key')}) is missing, but this database holds the two-factor secrets ` +
        'sealed with it: restore the totp-key file that was backed up with it',
      `DATA_DIR/seed-key (${join(restored, 'seed-key')}) is missing, but this database holds the games' secret seeds ` +
        'sealed with it: restore the seed-key file that was backed up with it',
      `DATA_DIR/log-key (${join(restored, 'log-key')}) is missing, but this database holds a game log signed with it: ` +
        'restore the log-key file that was backed up with it',
    ]);
    for (const key of ['totp-key', 'seed-key', 'log-key']) expect(existsSync(join(restored, key))).toBe(false);

    mkdirSync(restored, { recursive: true });
    for (const key of ['jwt-secret', 'totp-key', 'seed-key', 'log-key'])
      copyFileSync(join(dataDir, key), join(restored, key));
    const again = await startServer({ DATA_DIR: restored });
    try {
      const password = await callServer(again.url, 'POST', '/api/auth/signin', null, {
        username: 'keyed',
        password: 'secret123',
      });
      expect(password.json.twoFactorRequired).toBe(true);
      // The next step's code: the step of the set-up's code was taken.
      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });
      const signedIn = await callServer(again.url, 'POST', '/api/auth/signin/code', null, {
        challenge: password.json.challenge,
        code,
      });
      expect(signedIn.status).toBe(200);
    } finally {
      // Killed: its lock stays behind, naming a process that is gone.
      again.child.kill('SIGKILL');
      await exitOf(again.child);
    }
    expect(existsSync(join(restored, 'db.lock'))).toBe(true);
    // ledger:check takes the dead server's lock over, opens the directory, and the books balance.
    const check = await run(scripts('ledger-check-cli.ts'), { DATA_DIR: restored });
    expect(check.stdout).toContain('OK: every cent is accounted for.');
    expect(check.code).toBe(0);
  }, 120_000);
});
