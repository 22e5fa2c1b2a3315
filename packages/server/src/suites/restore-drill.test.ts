import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import {
  dumpPgliteDirectory,
  dumpPostgres,
  formatOf,
  restorePglite,
  restorePostgres,
  RestoreRefused,
  runningServer,
  seedKeyPlace,
  writeServerFile,
} from '../db/backup.ts';
import { SeedKeyMismatch } from '../lib/seed-box.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { verifyAudit } from '../modules/audit/audit-chain.ts';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import { configureWinners, drawAll, drawCall, openGame } from '../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund, money } from '../test/money-fixtures.ts';
import { anotherApp, freshPostgres, TEST_DB, type TestApp } from '../test/test-app.ts';
import { world } from '../test/world.ts';

/**
 * The restore drill (decision 027): money moves, a backup is taken, more money moves, and the
 * backup restored into a fresh database balances to the cent and equals, table by table, the
 * state at backup time — not the later one. A LOT-DRAW-2 game frozen before the backup (its pool
 * held, waiting for its beacon round) is finished on the restored database, by a server with the
 * seed key that came with it, with exactly the numbers the original drew after the backup: the
 * outcome was fixed at the freeze (decision 033).
 */
const scratch = mkdtempSync(join(tmpdir(), 'lot-restore-drill-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Top-ups down the tree, transfers along it (some keyed), a correction: every kind of row. */
async function activity(t: TestApp, h: Hierarchy, round: number): Promise<void> {
  await fund(t, h.S1.id, '500.00');
  await fund(t, h.U1.id, '40.00');
  expectStatus(await money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: '120.50' }, `s1-${round}`), 200);
  expectStatus(await money(t, h.A1.token, 'transfer', { receiverId: h.U2.id, amount: '30.25' }), 200);
  expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U3.id, amount: '7.10' }, `u1-${round}`), 200);
  expectStatus(
    await money(t, t.adminToken, 'decrease', { userId: h.U1.id, amount: '1.05', description: `drill ${round}` }),
    200,
  );
}

/**
 * A server on the restored database (the seed key, the beacon) finishes the game frozen before the
 * backup: the same numbers as the original, and the books still balance.
 */
async function finishesAsTheOriginal(t: TestApp, restored: Database, h: Hierarchy, original: Game): Promise<void> {
  const app = await anotherApp(t, {
    database: restored,
    beacon: t.beacon && { mode: 'required', urls: [t.beacon.url], chainHash: t.beacon.chain.chainHash },
  });
  try {
    const numbers: number[] = [];
    for (const { position } of original.draws) {
      const draw = () =>
        app.inject({
          method: 'POST',
          url: `/api/games/${original.id}/draws`,
          headers: { authorization: `Bearer ${h.U1.token}` },
          payload: { position },
        });
      let response = await draw();
      // A server just started answers that it waits until it has checked the beacon: asked again, as a client does.
      for (let asked = 1; response.statusCode === 202 && asked < 20; asked++) {
        await new Promise((resolve) => setTimeout(resolve, response.json<DrawWaiting>().retryAfterMs));
        response = await draw();
      }
      expectStatus(response, 200);
      numbers.push(response.json<DrawResult>().number);
    }
    expect(numbers).toEqual(original.draws.map((d) => d.number));
    expect((await checkLedger(restored.db)).ok).toBe(true);
  } finally {
    await app.close();
  }
}

async function expectRestored(
  t: TestApp,
  restored: Database,
  atBackup: Awaited<ReturnType<typeof world>>,
): Promise<void> {
  const report = await checkLedger(restored.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
  // The audit trail comes back as it was, not re-chained by its trigger (decision 029): every
  // hash still matches, and the rows equal the backup's (world below holds audit_log too).
  const audit = await verifyAudit(restored.db);
  expect(audit.ok, JSON.stringify(audit.problems)).toBe(true);
  expect(audit.rows).toBeGreaterThan(0);
  expect(await world({ database: restored })).toEqual(atBackup);
  // The seed key is kept with the backup (decision 034): a server on the restored database starts
  // with it, and refuses any other.
  const start = (seedKey: string) => anotherApp(t, { database: restored, seedKey });
  await expect(start(randomBytes(32).toString('hex'))).rejects.toThrow(SeedKeyMismatch);
  const app = await start(t.seedKey);
  await app.close();
  expect(await world({ database: restored })).toEqual(atBackup);
}

describe(`restore drill (${TEST_DB})`, () => {
  it('backup, more activity, restore into a fresh database: the books balance and equal the backup', async () => {
    const t = await createMoneyTestApp();
    cleanups.push(() => t.close());
    const h = await buildHierarchy(t);
    await activity(t, h, 1);
    // U1's game, frozen: its pool held, waiting for its round.
    await configureWinners(t, null, [
      { percent: '50.00', position: 1 },
      { percent: '25.00', position: 2 },
    ]);
    const frozen = await openGame(t, h.U1, { numbers: [3, 5, 8], bet: '2.00' });
    expectStatus(await drawCall(t, h.U1.token, frozen.id, 1), 202);
    // As cron takes it while the admins must sign in with two-factor: with a backup key (decision 041).
    const key = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/admin/backup-keys',
      payload: { name: 'restore drill' },
    });
    expectStatus(key, 201);
    expectStatus(
      await t.request(t.adminToken, {
        method: 'PUT',
        url: '/api/admin/two-factor-policy',
        payload: { roles: ['admin'] },
      }),
      200,
    );
    const atBackup = await world(t);
    expect((await checkLedger(t.database.db)).ok).toBe(true);

    const response = await t.request(key.json<{ secret: string }>().secret, {
      method: 'GET',
      url: '/api/admin/backup',
    });
    if (TEST_DB === 'pglite') {
      // The embedded database: the running server takes the copy (one process only).
      expectStatus(response, 200);
      expect(response.headers['content-type']).toBe('application/gzip');
      const file = join(scratch, 'lot.tar.gz');
      writeFileSync(file, response.rawPayload);
      expect(formatOf(readFileSync(file))).toBe('pglite');

      await activity(t, h, 2);
      const finished = await drawAll(t, h.U1, frozen);
      expect(await world(t)).not.toEqual(atBackup);

      const dataDir = join(scratch, 'restored');
      expect(await restorePglite(file, dataDir)).toBe(12); // the admin and the eleven of the hierarchy
      await expect(restorePglite(file, dataDir)).rejects.toThrow(RestoreRefused);
      const restored = await openDatabase({ kind: 'pglite', dataDir });
      cleanups.push(() => restored.close());
      await expectRestored(t, restored, atBackup);
      await restored.close();
      cleanups.pop();

      // With no server on it, the CLI opens the directory itself: the same state again.
      const again = join(scratch, 'again.tar.gz');
      writeFileSync(again, Buffer.from(await (await dumpPgliteDirectory(dataDir)).arrayBuffer()));
      const second = join(scratch, 'restored-again');
      await restorePglite(again, second);
      const reopened = await openDatabase({ kind: 'pglite', dataDir: second });
      cleanups.push(() => reopened.close());
      await expectRestored(t, reopened, atBackup);
      await finishesAsTheOriginal(t, reopened, h, finished);
    } else {
      // PostgreSQL is copied with its own tools; the server sends the admin to them.
      expectStatus(response, 409);
      const file = join(scratch, 'lot.dump');
      await dumpPostgres(t.databaseUrl ?? '', file);
      expect(formatOf(readFileSync(file))).toBe('postgres');

      await activity(t, h, 2);
      const finished = await drawAll(t, h.U1, frozen);
      expect(await world(t)).not.toEqual(atBackup);

      const target = await freshPostgres();
      cleanups.push(target.drop);
      await restorePostgres(file, target.url);
      await expect(restorePostgres(file, target.url)).rejects.toThrow(RestoreRefused);
      const restored = await openDatabase({ kind: 'postgres', url: target.url, poolSize: 2 });
      cleanups.push(() => restored.close());
      await expectRestored(t, restored, atBackup);
      await finishesAsTheOriginal(t, restored, h, finished);
    }
  }, 120_000);

  it('finds the server that has DATA_DIR open, and not one that was killed', () => {
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    expect(runningServer(dataDir)).toBeUndefined();
    writeServerFile(dataDir, 'http://127.0.0.1:3000');
    expect(runningServer(dataDir)).toEqual({ pid: process.pid, url: 'http://127.0.0.1:3000' });
    // A killed server leaves its file behind: its process is gone, so the directory is free.
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: 2 ** 22 + 1, url: 'http://127.0.0.1:3000' }));
    expect(runningServer(dataDir)).toBeUndefined();
  });

  it('the notes of backup and restore name where the seed key is kept', () => {
    expect(seedKeyPlace({ seedKey: undefined, dataDir: '/srv/lot/data' })).toBe(
      'DATA_DIR/seed-key (/srv/lot/data/seed-key) or SEED_KEY',
    );
    expect(seedKeyPlace({ seedKey: 's'.repeat(32), dataDir: '/srv/lot/data' })).toBe('SEED_KEY (as set here)');
  });
});
