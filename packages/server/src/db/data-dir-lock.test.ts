import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../test/test-app.ts';
import { openDatabase } from './client.ts';
import { DataDirBusy, lockDataDir, lockFile, lockHolder, processStart } from './data-dir-lock.ts';

/** The lock on DATA_DIR/db (decision 043), in this process; data-dir.test.ts runs it across processes. */
const root = mkdtempSync(join(tmpdir(), 'lot-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the DATA_DIR/db lock', () => {
  it('names its holder, refuses a second taker while held, and is gone once released', () => {
    const db = join(root, 'held', 'db');
    const release = lockDataDir(db, 'server');
    expect(JSON.parse(readFileSync(lockFile(db), 'utf8'))).toEqual({
      pid: process.pid,
      started: processStart(process.pid),
      command: 'server',
    });
    expect(lockHolder(db)).toMatchObject({ pid: process.pid, command: 'server' });
    const dir = join(root, 'held');
    let refused: unknown;
    try {
      lockDataDir(db, 'ledger:check');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirBusy);
    expect((refused as Error).message).toBe(
      `A LOT server (pid ${process.pid}) has DATA_DIR ${dir} open: stop it first, or check a copy (npm run backup, then npm run restore into another DATA_DIR).`,
    );
    release();
    expect(existsSync(lockFile(db))).toBe(false);

    // A command holding it: the server waits for it.
    const command = lockDataDir(db, 'seed:demo');
    expect(() => lockDataDir(db, 'server')).toThrow(
      `npm run seed:demo (pid ${process.pid}) has DATA_DIR ${dir} open: wait for it to finish.`,
    );
    command();
  });

  it('takes over a lock left by a process that is gone, by a reused process id, or written in part', () => {
    const db = join(root, 'stale', 'db');
    mkdirSync(join(root, 'stale'));
    for (const left of [
      { pid: deadPid(), started: '1', command: 'server' },
      // Our own id, started at another time: a container restarted with the same pid.
      { pid: process.pid, started: '1', command: 'server' },
    ]) {
      writeFileSync(lockFile(db), JSON.stringify(left));
      expect(lockHolder(db)).toBeUndefined();
      const release = lockDataDir(db, 'ledger:check');
      expect(lockHolder(db)).toMatchObject({ pid: process.pid, command: 'ledger:check' });
      release();
    }
    writeFileSync(lockFile(db), '{"pid":');
    lockDataDir(db, 'audit:verify')();
    expect(existsSync(lockFile(db))).toBe(false);
  });

  // PGlite only: the PostgreSQL run of this file adds nothing but a minute of migrations.
  it.skipIf(TEST_DB !== 'pglite')(
    'openDatabase holds it while open: a second open of the same directory is refused before PGlite touches it',
    async () => {
      const db = join(root, 'open', 'db');
      const first = await openDatabase({ kind: 'pglite', dataDir: db, command: 'server' });
      try {
        await expect(openDatabase({ kind: 'pglite', dataDir: db, command: 'db:migrate' })).rejects.toThrow(DataDirBusy);
      } finally {
        await first.close();
      }
      expect(existsSync(lockFile(db))).toBe(false);
    },
    60_000,
  );
});
