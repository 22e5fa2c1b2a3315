import { and, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatCents } from '@lot/domain/money';
import {
  NOTIFICATION_DAYS,
  NOTIFICATION_LIMIT,
  type Notification,
  type Notifications,
} from '@lot/domain/schemas/notifications';
import type { Db } from '../../db/client.ts';
import { gameRounds, signinFailures, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';

const other = alias(users, 'other');
const player = alias(users, 'player');

/**
 * The bell (docs/product/screens.md#header, decision 022): the last days' events that concern the
 * caller, newest first. Each kind is one index range scan bounded by the same instant: money
 * received (transactions by receiver), money taken back or taken off by an admin's correction (by
 * sender, docs/product/money.md#corrections), games voided by someone else
 * in the caller's record scope (by the recorded hierarchy and status), failed sign-ins on the
 * caller's account still on record (by username; the throttle keeps them only until they no longer
 * count, decision 010).
 */
export async function listNotifications(db: Db, caller: Caller): Promise<Notifications> {
  const since = sql`now() - make_interval(days => ${NOTIFICATION_DAYS})`;
  const [received, takenBack, voided, failures] = await Promise.all([
    db
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
          gt(transactions.createdAt, since),
        ),
      )
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(NOTIFICATION_LIMIT),
    db
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
          gt(transactions.createdAt, since),
        ),
      )
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(NOTIFICATION_LIMIT),
    db
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
          gt(gameRounds.endedAt, since),
        ),
      )
      .orderBy(desc(gameRounds.endedAt), desc(gameRounds.id))
      .limit(NOTIFICATION_LIMIT),
    db
      .select({ id: signinFailures.id, at: signinFailures.createdAt, address: signinFailures.address })
      .from(signinFailures)
      .where(and(eq(signinFailures.username, caller.username.toLowerCase()), gt(signinFailures.createdAt, since)))
      .orderBy(desc(signinFailures.createdAt), desc(signinFailures.id))
      .limit(NOTIFICATION_LIMIT),
  ]);
  const items: Notification[] = [
    ...received.map((row): Notification => ({
      kind: 'received',
      key: `received-${row.id}`,
      at: row.at.toISOString(),
      type: row.type === 'topup' ? 'topup' : 'transfer',
      amount: formatCents(row.amount),
      from: row.from,
    })),
    ...takenBack.map((row): Notification => ({
      kind: row.type === 'decrease' ? 'corrected' : 'takenBack',
      key: `${row.type === 'decrease' ? 'corrected' : 'takenBack'}-${row.id}`,
      at: row.at.toISOString(),
      amount: formatCents(row.amount),
      by: row.by,
      reason: row.reason,
    })),
    ...voided.map((row): Notification => ({
      kind: 'voided',
      key: `voided-${row.id}`,
      at: (row.at ?? new Date(0)).toISOString(),
      code: row.code,
      gameNumber: row.gameNumber,
      player: row.player,
      reason: row.reason,
    })),
    ...failures.map((row): Notification => ({
      kind: 'signinFailed',
      key: `signinFailed-${row.id}`,
      at: row.at.toISOString(),
      address: row.address,
    })),
  ];
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { items: items.slice(0, NOTIFICATION_LIMIT) };
}
