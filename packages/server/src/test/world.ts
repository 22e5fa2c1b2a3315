import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client.ts';
import type { TestApp } from './test-app.ts';

/**
 * Every table that holds state a call may change, the audit trail included (a refused call writes
 * no audit row). Sign-in failures are left out on purpose: recording a failed attempt is the one
 * thing a refused sign-in is meant to change (its audit row is checked by the audit suite).
 */
const TABLES = [
  'users',
  'user_logos',
  'balances',
  'transactions',
  'idempotency_keys',
  'winner_configs',
  'games',
  'game_winners',
  'game_rounds',
  'sales_daily',
  'branch_daily',
  'money_daily',
  'slip_prints',
  'prize_claims',
  'business_settings',
  'audit_log',
  'audit_heads',
  'shifts',
  'shift_cash_movements',
  'shop_counters',
  'backup_keys',
] as const;

export type World = Record<(typeof TABLES)[number], string>;

/**
 * A digest of every row of every state table, in one query: two equal worlds mean a call
 * changed nothing at all (balances, ledger, users, winners, games and games in progress, keys). Per table, so a
 * difference names where it happened.
 */
export async function world(t: Pick<TestApp, 'database'>): Promise<World> {
  const columns = TABLES.map(
    (table) =>
      sql`(SELECT md5(COALESCE(string_agg(r::text, '|' ORDER BY r::text), '')) FROM ${sql.identifier(table)} r) AS ${sql.identifier(table)}`,
  );
  const [row] = await queryRows<World>(t.database.db, sql`SELECT ${sql.join(columns, sql`, `)}`);
  if (!row) throw new Error('world query returned no row');
  return row;
}
