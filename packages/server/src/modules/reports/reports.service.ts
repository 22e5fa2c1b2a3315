import { sql } from 'drizzle-orm';
import { dayIn } from '@lot/domain/dates';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import type { DayClose, DayCloseQuery } from '@lot/domain/schemas/reports';
import { queryRows, type Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import { findInScope, findLiveUserById, type UserRow } from '../users/users.repository.ts';

/** The zone of a day close when the caller names none (decision 014). */
export const DEFAULT_TIME_ZONE = 'UTC';

type Totals = {
  day_start: Date | string;
  day_end: Date | string;
  settled: number | string;
  numbers_sold: string;
  pool: string;
  prizes: string;
  commission: string;
  voided: number | string;
  opening: string;
  topups_in: string;
  transfers_in: string;
  transfers_out: string;
  corrections: string;
  taken_back: string;
  pools_held: string;
  pools_returned: string;
  closing: string;
};

/**
 * Whose day close the caller may read: a user their own (another's is a role rule: 403); the
 * upline and the admin a user in their scope (outside it: 404, as if missing).
 */
async function shopOf(db: Db, caller: Caller, userId: number | undefined): Promise<UserRow> {
  if (caller.role === 'user') {
    if (userId !== undefined && userId !== caller.id) {
      throw new AppError('FORBIDDEN', 'You can only see your own day close');
    }
    const me = await findLiveUserById(db, caller.id);
    if (!me) throw new AppError('NOT_FOUND', 'User not found');
    return me;
  }
  if (userId === undefined) throw AppError.field('userId', 'Choose the shop (a user) whose day to close');
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  if (target.role !== 'user') throw new AppError('FORBIDDEN', 'A day close is for a shop: choose a user');
  return target;
}

/**
 * A shop's local day (docs/product/money.md#day-close): its games and every movement of its
 * balance, from the ledger, with the ledger's rules placed in time (decision 014): completed top-ups,
 * transfers, corrections and take-backs move money when they are made; a game's pool leaves the
 * balance when its first draw holds it, whatever became of it, and a voided game's pool comes back
 * when it is voided. So the opening balance is the sum of everything before the day's start, the
 * closing one everything before its end, and opening + the day's movements = closing exactly; today's
 * closing is the current balance.
 */
export async function dayClose(db: Db, caller: Caller, query: DayCloseQuery): Promise<DayClose> {
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  // A day still to come has no close: refused rather than answered as an empty or partial day.
  const today = dayIn(timeZone, new Date());
  if (query.date > today) {
    throw AppError.field('date', `date cannot be after today (${today} in ${timeZone})`);
  }
  const shop = await shopOf(db, caller, query.userId);
  const u = shop.id;
  const [row] = await queryRows<Totals>(
    db,
    sql`
    WITH bounds AS (
      SELECT (${query.date}::date)::timestamp AT TIME ZONE ${timeZone} AS day_start,
             (${query.date}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS day_end
    ), moves AS (
      SELECT created_at AS at, 'topup' AS kind, amount FROM transactions
        WHERE receiver_id = ${u} AND status = 'completed' AND type = 'topup'
      UNION ALL
      SELECT created_at, 'transfer_in', amount FROM transactions
        WHERE receiver_id = ${u} AND status = 'completed' AND type = 'transfer'
      UNION ALL
      SELECT created_at, 'transfer_out', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'transfer'
      UNION ALL
      SELECT created_at, 'correction', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'decrease'
      UNION ALL
      SELECT created_at, 'taken_back', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'takeback'
      UNION ALL
      SELECT created_at, 'held', -amount FROM transactions
        WHERE user_id = ${u} AND type = 'game' AND status IN ('pending', 'completed', 'voided')
      UNION ALL
      SELECT COALESCE(r.ended_at, t.created_at), 'returned', t.amount
        FROM transactions t LEFT JOIN game_rounds r ON r.transaction_id = t.id
        WHERE t.user_id = ${u} AND t.type = 'game' AND t.status = 'voided'
    ), money AS (
      SELECT
        COALESCE(sum(amount) FILTER (WHERE at < b.day_start), 0) AS opening,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'topup'), 0) AS topups_in,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'transfer_in'), 0) AS transfers_in,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'transfer_out'), 0) AS transfers_out,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'correction'), 0) AS corrections,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'taken_back'), 0) AS taken_back,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'held'), 0) AS pools_held,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'returned'), 0) AS pools_returned,
        COALESCE(sum(amount) FILTER (WHERE at < b.day_end), 0) AS closing
      FROM bounds b LEFT JOIN moves ON true
      GROUP BY b.day_start, b.day_end
    )
    SELECT b.day_start, b.day_end,
      (SELECT count(*) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end) AS settled,
      (SELECT COALESCE(sum(selected_count), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS numbers_sold,
      (SELECT COALESCE(sum(pool), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS pool,
      (SELECT COALESCE(sum(total_prize), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS prizes,
      (SELECT COALESCE(sum(commission), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS commission,
      (SELECT count(*) FROM game_rounds r WHERE r.user_id = ${u} AND r.status = 'voided' AND r.ended_at >= b.day_start AND r.ended_at < b.day_end) AS voided,
      m.opening::text, m.topups_in::text, m.transfers_in::text, m.transfers_out::text, m.corrections::text, m.taken_back::text,
      m.pools_held::text, m.pools_returned::text, m.closing::text
    FROM bounds b, money m`,
  );
  if (!row) throw new Error('day close query returned no row');
  const c = (text: string) => BigInt(text);
  const net =
    c(row.topups_in) +
    c(row.transfers_in) -
    c(row.transfers_out) -
    c(row.corrections) -
    c(row.taken_back) -
    c(row.pools_held) +
    c(row.pools_returned);
  if (c(row.opening) + net !== c(row.closing)) throw new Error(`day close of user ${u} does not add up`);
  return {
    userId: u,
    shopName: shop.shopName?.trim() || shop.fullName,
    date: query.date,
    timeZone,
    from: new Date(row.day_start).toISOString(),
    to: new Date(row.day_end).toISOString(),
    games: {
      settled: Number(row.settled),
      voided: Number(row.voided),
      numbersSold: Number(row.numbers_sold),
      pool: formatCents(c(row.pool)),
      prizes: formatCents(c(row.prizes)),
      commission: formatCents(c(row.commission)),
    },
    movements: {
      topupsIn: formatCents(c(row.topups_in)),
      transfersIn: formatCents(c(row.transfers_in)),
      transfersOut: formatCents(c(row.transfers_out)),
      corrections: formatCents(c(row.corrections)),
      takenBack: formatCents(c(row.taken_back)),
      gamePoolsHeld: formatCents(c(row.pools_held)),
      gamePoolsReturned: formatCents(c(row.pools_returned)),
      net: formatCents(net),
    },
    openingBalance: formatCents(c(row.opening)),
    closingBalance: formatCents(c(row.closing)),
  };
}
