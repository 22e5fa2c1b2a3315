import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { verifyAudit } from '../modules/audit/audit-chain.ts';
import { runCleanups, upgradeWith as upgradeBefore, type Cleanups } from '../test/migrations.ts';
import { TEST_DB } from '../test/test-app.ts';
import { queryRows, type Database, type Db } from './client.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from './errors.ts';
import { ensureAdmin } from '../cli/seed.ts';

/**
 * Migration 0013 on a database that already holds duplicate active winner configurations
 * (decision 035): the database is migrated up to 0012, given duplicates, then opened as the server
 * opens it, which applies 0013 and whatever follows.
 */

const cleanups: Cleanups = [];
afterAll(() => runCleanups(cleanups));

/** A database migrated up to 0012 (given `seed`), then opened through openDatabase. */
const upgradeWith = (seed: (db: Db) => Promise<void>): Promise<Database> =>
  upgradeBefore('0013_lot_draw_2', cleanups, seed);

type Row = { id: number; user_id: number | null; position: number; is_active: boolean };

describe(`migration 0013: one prize per position (${TEST_DB})`, () => {
  it('keeps the newest active configuration of each owner and position, deactivates the others with an audit row and a notice', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const ids: Record<string, number> = {};
    const database = await upgradeWith(async (db) => {
      await ensureAdmin(db, { username: 'admin', password: 'admin-password' });
      const [admin] = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE username = 'admin'`);
      // [name, owner, position, active, created]: the admin stands for a player (the owner is all
      // that matters here); null is the global ones.
      const rows: [string, number | null, number, boolean, string][] = [
        ['own 1 oldest', admin!.id, 1, true, '2026-11-01T10:00:00Z'],
        ['own 1 newest', admin!.id, 1, true, '2026-11-03T10:00:00Z'],
        ['own 1 middle', admin!.id, 1, true, '2026-11-02T10:00:00Z'],
        ['own 1 inactive', admin!.id, 1, false, '2026-11-04T10:00:00Z'],
        ['own 2 alone', admin!.id, 2, true, '2026-11-01T10:00:00Z'],
        // Same time: the higher id is the newer one.
        ['global 1 first', null, 1, true, '2026-11-01T10:00:00Z'],
        ['global 1 second', null, 1, true, '2026-11-01T10:00:00Z'],
        ['global 2 alone', null, 2, true, '2026-11-01T10:00:00Z'],
      ];
      for (const [name, userId, position, active, created] of rows) {
        const [row] = await queryRows<{ id: number }>(
          db,
          sql`INSERT INTO winner_configs (user_id, name, percent_bps, position, is_active, created_at)
              VALUES (${userId}, ${name}, 1000, ${position}, ${active}, ${created}) RETURNING id`,
        );
        ids[name] = row!.id;
      }
    });
    cleanups.push(() => database.close());
    const notices = warn.mock.calls.map(([line]) => String(line));
    warn.mockRestore();
    const db = database.db;

    const rows = await queryRows<Row>(db, sql`SELECT id, user_id, position, is_active FROM winner_configs ORDER BY id`);
    const active = rows.filter((row) => row.is_active).map((row) => row.id);
    expect(active).toEqual(
      [ids['own 1 newest'], ids['own 2 alone'], ids['global 1 second'], ids['global 2 alone']].sort((a, b) => a! - b!),
    );

    const deactivated = [ids['own 1 oldest'], ids['own 1 middle'], ids['global 1 first']] as number[];
    const audit = await queryRows<{ target_id: number; actor_id: number | null; action: string; details: unknown }>(
      db,
      sql`SELECT target_id::int, actor_id, action, details FROM audit_log WHERE target_kind = 'winner' ORDER BY target_id`,
    );
    expect(audit).toEqual(
      [
        [ids['own 1 oldest'], ids['own 1 newest'], 1],
        [ids['own 1 middle'], ids['own 1 newest'], 1],
        [ids['global 1 first'], ids['global 1 second'], 1],
      ]
        .sort((a, b) => a[0]! - b[0]!)
        .map(([id, kept, position]) => ({
          target_id: id,
          actor_id: null,
          action: 'winner.updated',
          details: {
            changes: { isActive: { from: true, to: false } },
            reason: `Position ${position} already has a prize`,
            keptId: kept,
            migration: '0013_lot_draw_2',
          },
        })),
    );
    expect((await verifyAudit(db)).ok).toBe(true);

    // The server's log says what the migration changed: a line per configuration and a count.
    for (const id of deactivated)
      expect(notices.some((line) => line.startsWith(`migration: winner configuration ${id} (`))).toBe(true);
    expect(notices).toContain(
      'migration: 3 duplicate winner configuration(s) deactivated (decision 035; the audit trail lists them)',
    );

    // From now on the database itself refuses a second active configuration on a position.
    for (const userId of [rows[0]!.user_id, null]) {
      const duplicate = queryRows(
        db,
        sql`INSERT INTO winner_configs (user_id, name, percent_bps, position) VALUES (${userId}, 'again', 1, 1)`,
      );
      await expect(duplicate.catch(pgErrorCode)).resolves.toBe(UNIQUE_VIOLATION);
    }
  });

  it('changes nothing and says nothing on a database without duplicates', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const database = await upgradeWith(async (db) => {
      await queryRows(
        db,
        sql`INSERT INTO winner_configs (user_id, name, percent_bps, position, is_active)
            VALUES (NULL, 'first', 5000, 1, true), (NULL, 'old first', 5000, 1, false), (NULL, 'second', 3000, 2, true)`,
      );
    });
    cleanups.push(() => database.close());
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    const rows = await queryRows<Row>(database.db, sql`SELECT id, is_active FROM winner_configs ORDER BY id`);
    expect(rows.map((row) => row.is_active)).toEqual([true, false, true]);
    expect(await queryRows(database.db, sql`SELECT 1 FROM audit_log`)).toEqual([]);
  });
});
