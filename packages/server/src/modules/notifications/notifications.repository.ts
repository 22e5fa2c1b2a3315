import { and, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { NOTIFICATION_DAYS, NOTIFICATION_LIMIT } from '@lot/domain/schemas/notifications';
import type { Db, Tx } from '../../db/client.ts';
import { gameRounds, signinFailures, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';

/**
 * The bell's reads (decision 022): each kind one index range scan over the last NOTIFICATION_DAYS
 * days, newest first, at most NOTIFICATION_LIMIT rows.
 */

const other = alias(users, 'other');
const player = alias(users, 'player');

const since = () => sql`now() - make_interval(days => ${NOTIFICATION_DAYS})`;

/** Money received by the user: top-ups and transfers to it. */
export function receivedMoney(db: Db | Tx, caller: Caller) {
  return db
    .select({
      id: transactions.id,
      type: transactions.type,
      amount: transactions.amount,
      at: transactions.createdAt,
      from: { id: other.id, username: other.username, fullName: other.fullName },
    })
    .from(transactions)
    .leftJoin(other, eq(other.id, transactions.userId))
    .where(
      and(
        eq(transactions.receiverId, caller.id),
        inArray(transactions.type, ['topup', 'transfer']),
        eq(transactions.status, 'completed'),
        gt(transactions.createdAt, since()),
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(NOTIFICATION_LIMIT);
}

/** Money taken back from the user, or taken off by an admin's correction. */
export function moneyTakenBack(db: Db | Tx, caller: Caller) {
  return db
    .select({
      id: transactions.id,
      type: transactions.type,
      amount: transactions.amount,
      at: transactions.createdAt,
      reason: transactions.description,
      by: { id: other.id, username: other.username, fullName: other.fullName },
    })
    .from(transactions)
    .leftJoin(other, eq(other.id, transactions.actorId))
    .where(
      and(
        eq(transactions.userId, caller.id),
        inArray(transactions.type, ['takeback', 'decrease']),
        gt(transactions.createdAt, since()),
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(NOTIFICATION_LIMIT);
}

/** Games voided by someone else among those the caller may read (one's own Reset is no news). */
export function gamesVoidedByOthers(db: Db | Tx, caller: Caller) {
  return db
    .select({
      id: gameRounds.id,
      code: gameRounds.code,
      gameNumber: gameRounds.number,
      at: gameRounds.endedAt,
      reason: gameRounds.voidReason,
      player: { id: player.id, username: player.username, fullName: player.fullName },
    })
    .from(gameRounds)
    .innerJoin(player, eq(player.id, gameRounds.userId))
    .where(
      and(
        eq(gameRounds.status, 'voided'),
        readableByRecord(caller, gameRounds),
        // One's own Reset is no news.
        ne(gameRounds.voidedBy, caller.id),
        gt(gameRounds.endedAt, since()),
      ),
    )
    .orderBy(desc(gameRounds.endedAt), desc(gameRounds.id))
    .limit(NOTIFICATION_LIMIT);
}

/** Failed sign-ins on the caller's account still on record. */
export function recentSigninFailures(db: Db | Tx, caller: Caller) {
  return db
    .select({ id: signinFailures.id, at: signinFailures.createdAt, address: signinFailures.address })
    .from(signinFailures)
    .where(and(eq(signinFailures.username, caller.username.toLowerCase()), gt(signinFailures.createdAt, since())))
    .orderBy(desc(signinFailures.createdAt), desc(signinFailures.id))
    .limit(NOTIFICATION_LIMIT);
}
