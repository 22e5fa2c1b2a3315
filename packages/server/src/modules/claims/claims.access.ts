import { sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../../lib/caller.ts';
import type { ClaimRow } from './claims.repository.ts';

/**
 * Who may read and pay which prize claim (decision 038, docs/product/money.md#prize-claims), as
 * conditions on the claim `c` and its game's shop for the repository's statements.
 */

/** The shops a shop may pay for, as a condition on the game's shop (`shop`): itself, and its siblings. */
export function payableShops(caller: Caller, alias: 'shop' | 'u'): SQL {
  const table = sql.raw(alias);
  return caller.parentId === null
    ? sql`${table}.id = ${caller.id}::int`
    : sql`(${table}.id = ${caller.id}::int OR ${table}.parent_id = ${caller.parentId}::int)`;
}

/**
 * Who may read a claim: the hierarchy recorded with it (admin all), and for a shop also the claims
 * it paid (their receipts); `paidToo` false for the lists (a shop lists its own games' prizes).
 */
export function readable(caller: Caller, paidToo: boolean): SQL {
  switch (caller.role) {
    case 'admin':
      return sql`true`;
    case 'superagent':
      return sql`c.superagent_id = ${caller.id}::int`;
    case 'agent':
      return sql`c.parent_id = ${caller.id}::int`;
    default:
      return paidToo
        ? sql`(c.user_id = ${caller.id}::int OR c.paid_by = ${caller.id}::int)`
        : sql`c.user_id = ${caller.id}::int`;
  }
}

/** Whether the caller (a shop) may pay the claim's prize: its own game, or a sibling's when the setting allows. */
export function allowedToPay(caller: Caller, row: ClaimRow): boolean {
  if (caller.role !== 'user') return false;
  if (row.user_id === caller.id) return true;
  return row.any_shop && caller.parentId !== null && row.shop_parent_id === caller.parentId;
}

/** `allowedToPay` as SQL on the claim `c` and its game's shop `shop`, for the pay statement. */
export function mayPaySql(caller: Caller): SQL {
  if (caller.role !== 'user') return sql`false`;
  if (caller.parentId === null) return sql`c.user_id = ${caller.id}::int`;
  return sql`(c.user_id = ${caller.id}::int OR (shop.parent_id = ${caller.parentId}::int
    AND COALESCE((SELECT claims_any_shop_of_agent FROM business_settings WHERE id = 1), false)))`;
}

/** Every claim, for a read after a change the caller was allowed to make. */
export const everyClaim: SQL = sql`true`;
