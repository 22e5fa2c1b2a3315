import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callServer, exitOf, startServer, type Started } from './test/server-process.ts';
import { TEST_DB } from './test/test-app.ts';

/**
 * Issue 43: no file under DATA_DIR, no backup and no restored database can be read or changed by
 * another local account (decision 063). A DATA_DIR left open by an older release (0755, a key file
 * 0644) is closed again by the first start; the server, `npm run audit:checkpoint`, `npm run
 * backup` (through the server and directly) and `npm run restore` run as npm runs them; then the
 * modes are checked as root sees them (`find -perm /077`) and as user `nobody` would meet them.
 */
const cli = (name: string) => fileURLToPath(new URL(`./cli/${name}`, import.meta.url));
const PASSWORD = 'admin-password-1';
const isRoot = process.getuid?.() === 0;
const canActAsNobody = isRoot && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;

function run(file: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DRAW_BEACON: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return exitOf(child).then((code) => ({ code, output }));
}

/** Every path under `dir` (itself included) with any permission for group or other, as `find` lists them. */
function openToOthers(dir: string): string[] {
  const found = spawnSync('find', [dir, '-perm', '/077'], { encoding: 'utf8' });
  expect(found.status, found.stderr).toBe(0);
  return found.stdout.split('\n').filter(Boolean);
}

/** Whether user `nobody` passes `test <flag> path` (-r readable, -w writable, -x enterable). */
const nobody = (flag: string, path: string) =>
  spawnSync('runuser', ['-u', 'nobody', '--', 'test', flag, path]).status === 0;

const root = mkdtempSync(join(tmpdir(), 'lot-private-'));
const dataDir = join(root, 'data');
const restored = join(root, 'restored');
const backups = join(root, 'backups');
let server: Started | undefined;

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await exitOf(server.child);
  }
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(TEST_DB !== 'pglite')(
  'private files: DATA_DIR, backups and restores are their owner’s only (pglite)',
  () => {
    beforeAll(async () => {
      // Other accounts may walk into the test's folders: only LOT's own modes may keep them out.
      chmodSync(root, 0o755);
      mkdirSync(backups, { mode: 0o755 });
      chmodSync(backups, 0o755);
      // As an older release left it: the folder 0755, a key file 0644.
      mkdirSync(dataDir, { mode: 0o755 });
      chmodSync(dataDir, 0o755);
      writeFileSync(join(dataDir, 'jwt-secret'), `${'k'.repeat(64)}\n`);
      chmodSync(join(dataDir, 'jwt-secret'), 0o644);
      // A file anyone may read, to show that `nobody` is really asked below.
      writeFileSync(join(root, 'open-file'), 'x');
      chmodSync(join(root, 'open-file'), 0o644);

      server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
      const signin = await callServer(server.url, 'POST', '/api/auth/signin', null, {
        username: 'admin',
        password: PASSWORD,
      });
      const token = String(signin.json.accessToken);
      const created = await callServer(server.url, 'POST', '/api/users', token, {
        username: 'private_user',
        password: 'secret123',
        fullName: 'Private User',
        role: 'superagent',
      });
      expect(created.status).toBe(201);
      // Files the running server wrote: server.json, the checkpoint key (scheduled checkpoints are on).
      for (const name of ['server.json', 'checkpoint-key', 'seed-key', 'totp-key'])
        expect(statSync(join(dataDir, name)).mode & 0o777, name).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);

      // npm run backup while the server runs: the server takes the copy, the command writes it.
      const through = await run(cli('backup-cli.ts'), { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD }, [
        join(backups, 'through-server.tar.gz'),
      ]);
      expect(through.code, through.output).toBe(0);
      server.child.kill('SIGTERM');
      expect(await exitOf(server.child)).toBe(0);

      // Without a server: a checkpoint, a backup of the directory itself, a restore of it.
      const checkpoint = await run(cli('audit-checkpoint-cli.ts'), { DATA_DIR: dataDir });
      expect(checkpoint.code, checkpoint.output).toBe(0);
      const direct = await run(cli('backup-cli.ts'), { DATA_DIR: dataDir }, [join(backups, 'direct.tar.gz')]);
      expect(direct.code, direct.output).toBe(0);
      const restore = await run(cli('restore-cli.ts'), { DATA_DIR: restored }, [join(backups, 'direct.tar.gz')]);
      expect(restore.code, restore.output).toBe(0);
    }, 180_000);

    it('DATA_DIR and the restored one are 0700, and nothing under them or among the backups is open to group or other', () => {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(restored).mode & 0o777).toBe(0o700);
      // PGlite's own files are there (it writes them 0666 itself), and the checkpoint the command signed.
      expect(readdirSync(join(dataDir, 'db'), { recursive: true }).length).toBeGreaterThan(500);
      expect(readdirSync(join(dataDir, 'checkpoints'))).toHaveLength(1);
      expect(readdirSync(backups).sort()).toEqual(['direct.tar.gz', 'through-server.tar.gz']);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(openToOthers(restored)).toEqual([]);
      expect(openToOthers(backups)).toEqual([backups]);
      for (const name of ['jwt-secret', 'totp-key', 'seed-key', 'checkpoint-key'])
        expect(statSync(join(dataDir, name)).mode & 0o777, name).toBe(0o600);
    });

    it.skipIf(!canActAsNobody)(
      'user nobody can read, change or list none of it (skipped unless run as root with runuser: it acts as nobody)',
      () => {
        expect(nobody('-r', join(root, 'open-file'))).toBe(true);
        expect(nobody('-x', backups)).toBe(true);
        for (const file of readdirSync(backups)) {
          expect(nobody('-r', join(backups, file)), file).toBe(false);
          expect(nobody('-w', join(backups, file)), file).toBe(false);
        }
        for (const dir of [dataDir, restored]) {
          expect(nobody('-x', dir), dir).toBe(false);
          expect(nobody('-r', dir), dir).toBe(false);
          expect(nobody('-w', dir), dir).toBe(false);
        }
        for (const name of ['jwt-secret', 'totp-key', 'seed-key', 'checkpoint-key', 'db/PG_VERSION'])
          expect(nobody('-r', join(dataDir, name)), name).toBe(false);
      },
    );
  },
);
