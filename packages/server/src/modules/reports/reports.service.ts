import { dateAfterToday, SERVER_MESSAGES } from '@lot/domain/server-messages';
import { dayIn } from '@lot/domain/dates';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import type { DayClose, DayCloseQuery } from '@lot/domain/schemas/reports';
import type { Context } from '../../lib/context.ts';
import { findInScope, findLiveUserById, type UserRow } from '../users/users.repository.ts';
import { readDayClose } from './reports.repository.ts';

/** The zone of a day close when the caller names none (decision 014). */
export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * Whose day close the caller may read: a user their own (another's is a role rule: 403); the
 * upline and the admin a user in their scope (outside it: 404, as if missing).
 */
async function shopOf({ db, caller }: Context, userId: number | undefined): Promise<UserRow> {
  if (caller.role === 'user') {
    if (userId !== undefined && userId !== caller.id) {
      throw new AppError('FORBIDDEN', SERVER_MESSAGES.dayCloseOwnOnly);
    }
    const me = await findLiveUserById(db, caller.id);
    if (!me) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
    return me;
  }
  if (userId === undefined) throw AppError.field('userId', SERVER_MESSAGES.dayCloseChooseShop);
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  if (target.role !== 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.dayCloseShopOnly);
  return target;
}

/**
 * A shop's local day (docs/product/money.md#day-close): its games and every movement of its
 * balance, from the ledger, with the ledger's rules placed in time (decision 014): completed top-ups,
 * transfers, corrections and take-backs move money when they are made; a game's pool leaves the
 * balance when its first draw holds it, whatever became of it, and a voided game's pool comes back
 * when it is voided. So the opening balance is the sum of everything before the day's start, the
 * closing one everything before its end, and opening + the day's movements = closing exactly; today's
 * closing is the current balance (the statement: reports.repository.ts `dayCloseStatement`).
 */
export async function dayClose(ctx: Context, query: DayCloseQuery): Promise<DayClose> {
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  // A day still to come has no close: refused rather than answered as an empty or partial day.
  const today = dayIn(timeZone, new Date(ctx.clock()));
  if (query.date > today) {
    throw AppError.field('date', dateAfterToday(today, timeZone));
  }
  const shop = await shopOf(ctx, query.userId);
  const u = shop.id;
  const row = await readDayClose(ctx.db, u, query.date, timeZone);
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
