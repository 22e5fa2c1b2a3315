import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyAudit } from '../modules/audit/audit-chain.ts';
import { runCleanups, upgradeWith, type Cleanups } from '../test/migrations.ts';
import { TEST_DB } from '../test/test-app.ts';
import { queryRows, type Db } from './client.ts';

/**
 * Migration 0015's audit scopes (decision 048) on rows written before it: each person's parent and
 * super agent as they stood when the row was written (the moves the trail recorded since tell),
 * a game's rows as the game recorded them, and a move both hierarchies'; the chains still verify.
 */

const cleanups: Cleanups = [];
afterAll(() => runCleanups(cleanups));

async function person(db: Db, username: string, role: string, parent?: { id: number; role: string }) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO users (username, password_hash, full_name, role, parent_id, parent_role)
      VALUES (${username}, 'x', ${username}, ${role}, ${parent?.id ?? null}, ${parent?.role ?? null}) RETURNING id`,
  );
  return { id: row!.id, role };
}

async function audit(db: Db, actor: number, action: string, kind: string, target: number, user: number, details = {}) {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO audit_log (actor_id, action, target_kind, target_id, target_user_id, details)
      VALUES (${actor}, ${action}, ${kind}, ${target}, ${user}, ${JSON.stringify(details)}::jsonb) RETURNING id::text`,
  );
  return Number(row!.id);
}

describe(`migration 0015: who reads each audit row (${TEST_DB})`, () => {
  it('gives rows written before it the scope of their time', async () => {
    const ids: Record<string, number> = {};
    const database = await upgradeWith('0015_audit_scope', cleanups, async (db) => {
      const admin = await person(db, 'admin_m', 'admin');
      const s1 = await person(db, 's1_m', 'superagent');
      const s2 = await person(db, 's2_m', 'superagent');
      const a1 = await person(db, 'a1_m', 'agent', s1);
      const a3 = await person(db, 'a3_m', 'agent', s2);
      const shop = await person(db, 'shop_m', 'user', a1);
      Object.assign(ids, { admin: admin.id, s1: s1.id, s2: s2.id, a1: a1.id, a3: a3.id, shop: shop.id });
      const [game] = await queryRows<{ id: number }>(
        db,
        sql`INSERT INTO game_rounds (code, user_id, parent_id, superagent_id, status, start_range, end_range, bet_amount,
            prizes, seed, commitment)
          VALUES ('code-0015', ${shop.id}, ${a1.id}, ${s1.id}, 'open', 1, 10, 100, '[]'::jsonb, '\\x00'::bytea, 'c')
          RETURNING id`,
      );
      ids.topUp = await audit(db, admin.id, 'money.topup', 'transaction', 1, shop.id);
      ids.opened = await audit(db, shop.id, 'game.opened', 'game', game!.id, shop.id);
      ids.move = await audit(db, admin.id, 'user.updated', 'user', shop.id, shop.id, {
        changes: { parentId: { from: a1.id, to: a3.id } },
      });
      await db.execute(sql`UPDATE users SET parent_id = ${a3.id} WHERE id = ${shop.id}`);
      ids.voided = await audit(db, shop.id, 'game.voided', 'game', game!.id, shop.id);
      ids.later = await audit(db, admin.id, 'money.topup', 'transaction', 2, shop.id);
      ids.own = await audit(db, a3.id, 'auth.signin', 'user', a3.id, a3.id);
    });
    cleanups.push(() => database.close());
    const { db } = database;

    const rows = await queryRows<{ id: string; actor_scope: number[] | null; target_scope: number[] | null }>(
      db,
      sql`SELECT id::text, actor_scope, target_scope FROM audit_log ORDER BY id`,
    );
    const scope = (id: number) => rows.find((row) => Number(row.id) === id);
    const { s1, s2, a1, a3 } = ids as Record<string, number>;
    expect(scope(ids.topUp!)).toMatchObject({ actor_scope: [], target_scope: [a1, s1] });
    expect(scope(ids.opened!)).toMatchObject({ actor_scope: [a1, s1], target_scope: [a1, s1] });
    expect(scope(ids.move!)).toMatchObject({ actor_scope: [], target_scope: [a1, s1, a3, s2] });
    // The game was played under A1: its void after the move stays A1's, as the game does.
    expect(scope(ids.voided!)).toMatchObject({ actor_scope: [a1, s1], target_scope: [a1, s1] });
    expect(scope(ids.later!)).toMatchObject({ actor_scope: [], target_scope: [a3, s2] });
    expect(scope(ids.own!)).toMatchObject({ actor_scope: [s2], target_scope: [s2] });
    // Still append-only, and the chains unchanged.
    await expect(db.execute(sql`UPDATE audit_log SET actor_scope = NULL`)).rejects.toThrow();
    expect((await verifyAudit(db)).ok).toBe(true);
    // Migrating a PGlite database twice takes tens of seconds on a loaded machine.
  }, 120_000);
});
