import { and, desc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgSelect, type SelectedFields } from 'drizzle-orm/pg-core';
import { NOTIFICATION_DAYS, NOTIFICATION_LIMIT } from '@lot/domain/schemas/notifications';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { auditLog, gameRounds, signinFailures, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';
import { voidedAfterWinnerPrizes } from '../games/games.repository.ts';

/**
 * The bell's reads (decision 022): each kind one index range scan over the last NOTIFICATION_DAYS
 * days, newest first, at most NOTIFICATION_LIMIT rows.
 */

const other = alias(users, 'other');
const player = alias(users, 'player');

/**
 * A kind's news: the rows of `query` that meet `conditions` and are dated (`at`) within the last
 * NOTIFICATION_DAYS days, newest first (ties by `id`), at most NOTIFICATION_LIMIT of them.
 */
function latest<Q extends PgSelect>(query: Q, at: PgColumn, id: PgColumn, conditions: (SQL | undefined)[]) {
  return query
    .where(and(...conditions, gt(at, sql`now() - make_interval(days => ${NOTIFICATION_DAYS})`)))
    .orderBy(desc(at), desc(id))
    .limit(NOTIFICATION_LIMIT);
}

/** The caller's ledger rows as the bell lists them, with the other party (`other`) joined on `party`. */
function ledgerNews<F extends SelectedFields>(db: Db | Tx, party: PgColumn, fields: F) {
  const query = db
    .select({
      id: transactions.id,
      type: transactions.type,
      amount: transactions.amount,
      at: transactions.createdAt,
      ...fields,
    })
    .from(transactions)
    .leftJoin(other, eq(other.id, party));
  return query.$dynamic();
}

const otherParty = { id: other.id, username: other.username, fullName: other.fullName };

/** Money received by the user: top-ups and transfers to it. */
export function receivedMoney(db: Db | Tx, caller: Caller) {
  return latest(ledgerNews(db, transactions.userId, { from: otherParty }), transactions.createdAt, transactions.id, [
    eq(transactions.receiverId, caller.id),
    inArray(transactions.type, ['topup', 'transfer']),
    eq(transactions.status, 'completed'),
  ]);
}

/** Money taken back from the user, or taken off by an admin's correction. */
export function moneyTakenBack(db: Db | Tx, caller: Caller) {
  const query = ledgerNews(db, transactions.actorId, { reason: transactions.description, by: otherParty });
  return latest(query, transactions.createdAt, transactions.id, [
    eq(transactions.userId, caller.id),
    inArray(transactions.type, ['takeback', 'decrease']),
  ]);
}

/** Games voided by someone else among those the caller may read (one's own Reset is no news). */
export function gamesVoidedByOthers(db: Db | Tx, caller: Caller) {
  const query = db
    .select({
      id: gameRounds.id,
      code: gameRounds.code,
      gameNumber: gameRounds.number,
      at: gameRounds.endedAt,
      reason: gameRounds.voidReason,
      prizesAnnounced: voidedAfterWinnerPrizes({ id: gameRounds.id, userId: gameRounds.userId }),
      player: { id: player.id, username: player.username, fullName: player.fullName },
    })
    .from(gameRounds)
    .innerJoin(player, eq(player.id, gameRounds.userId));
  return latest(query.$dynamic(), gameRounds.endedAt, gameRounds.id, [
    eq(gameRounds.status, 'voided'),
    readableByRecord(caller, gameRounds),
    ne(gameRounds.voidedBy, caller.id),
  ]);
}

/** Failed sign-ins on the caller's account still on record. */
export function recentSigninFailures(db: Db | Tx, caller: Caller) {
  const query = db
    .select({ id: signinFailures.id, at: signinFailures.createdAt, address: signinFailures.address })
    .from(signinFailures);
  return latest(query.$dynamic(), signinFailures.createdAt, signinFailures.id, [
    eq(signinFailures.username, caller.username.toLowerCase()),
  ]);
}

/**
 * The prizes won before prize claims existed that nobody has marked paid yet (decision 060): how
 * many, their sum and the newest one's settlement, for the admin's one notice.
 */
export async function beforeClaimsSummary(db: Db): Promise<{ count: number; amount: string; at: Date | null }> {
  const [row] = await queryRows<{ count: number; amount: string; at: Date | string | null }>(
    db,
    sql`SELECT count(*)::int AS count, COALESCE(sum(amount), 0)::text AS amount, max(created_at) AS at
      FROM prize_claims WHERE status = 'before_claims'`,
  );
  return { count: Number(row?.count ?? 0), amount: row?.amount ?? '0', at: row?.at ? new Date(row.at) : null };
}

/**
 * To an admin: the admins' changes of the LOT-DRAW-1 permission (decision 061), walked through the
 * admins' audit rows (audit_log_actor_idx). Anyone else: none, without a query.
 */
export async function serverRandomnessChanges(db: Db | Tx, caller: Caller) {
  if (caller.role !== 'admin') return [];
  const admins = db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  const query = db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      allowed: sql<boolean>`(${auditLog.details}->>'allowed')::boolean`,
      by: otherParty,
    })
    .from(auditLog)
    .leftJoin(other, eq(other.id, auditLog.actorId));
  return latest(query.$dynamic(), auditLog.at, auditLog.id, [
    inArray(auditLog.actorId, admins),
    eq(auditLog.action, 'settings.server_randomness'),
  ]);
}
