import { and, desc, eq, gte, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ListTransactionsQuery } from '@lot/domain/schemas/balance';
import { type Db, type Tx } from '../../db/client.ts';
import { queryPrepared, selectPrepared } from '../../db/prepared.ts';
import { containsPattern, whereClause } from '../../db/sql.ts';
import { gameRounds, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { olderThan, type TimeKey } from '../../lib/export.ts';

/** The transactions list's SQL (docs/ARCHITECTURE.md#layers): its page, its totals and its export's pages. */

const sender = alias(users, 'sender');
const receiver = alias(users, 'receiver');

const columns = {
  id: transactions.id,
  type: transactions.type,
  userId: transactions.userId,
  receiverId: transactions.receiverId,
  amount: transactions.amount,
  status: transactions.status,
  description: transactions.description,
  createdAt: transactions.createdAt,
  senderUsername: sender.username,
  senderFullName: sender.fullName,
  receiverUsername: receiver.username,
  receiverFullName: receiver.fullName,
  gameCode: gameRounds.code,
  gameNumber: gameRounds.number,
};

function selectTransactions(db: Db | Tx) {
  return db
    .select(columns)
    .from(transactions)
    .innerJoin(sender, eq(sender.id, transactions.userId))
    .leftJoin(receiver, eq(receiver.id, transactions.receiverId))
    .leftJoin(gameRounds, eq(gameRounds.transactionId, transactions.id));
}

/** A ledger row of a list page with its sender, receiver and game. */
export type TransactionRow = Awaited<ReturnType<ReturnType<typeof selectTransactions>['execute']>>[number];

/**
 * The filtered set's totals as the caller's table signs its rows (docs/product/money.md#ledger,
 * docs/product/screens.md#transactions): money in is a top-up, a transfer to the caller or money the
 * caller took back; money out a transfer the caller sent, a correction, money taken back from the
 * caller, or a game's pool unless the game was voided (its pool came back); a transfer or take-back
 * between two other people, seen by the admin, is neither. So the caller's unfiltered net is their
 * balance, and the admin's is the sum of all balances.
 */
const moneyIn = (callerId: number) =>
  sql`(${transactions.type} = 'topup' OR (${transactions.type} IN ('transfer', 'takeback') AND ${transactions.receiverId} = ${callerId}))`;
const moneyOut = (callerId: number) =>
  sql`(${transactions.type} = 'decrease' OR (${transactions.type} = 'game' AND ${transactions.status} <> 'voided') OR (${transactions.type} IN ('transfer', 'takeback') AND ${transactions.userId} = ${callerId} AND ${transactions.receiverId} IS DISTINCT FROM ${callerId}))`;

export type TransactionsFilter = Omit<ListTransactionsQuery, 'limit' | 'offset'>;

/** Which rows a list (or its export) holds: the admin every one; everyone else those they sent or received. */
export function transactionsWhere(caller: Caller, query: TransactionsFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (caller.role !== 'admin') {
    conditions.push(or(eq(transactions.userId, caller.id), eq(transactions.receiverId, caller.id)));
  }
  if (query.type) conditions.push(eq(transactions.type, query.type));
  // A top-up names its admin as sender but takes nothing from the admin's balance: not sent.
  if (query.direction === 'received') conditions.push(eq(transactions.receiverId, caller.id));
  if (query.direction === 'sent')
    conditions.push(
      eq(transactions.userId, caller.id),
      inArray(transactions.type, ['transfer', 'decrease', 'game', 'takeback']),
      // A voided game's pool came back: it was never spent.
      ne(transactions.status, 'voided'),
    );
  if (query.from) conditions.push(gte(transactions.createdAt, new Date(query.from)));
  // The database keeps microseconds but the API shows createdAt to the millisecond, so `to` takes in
  // its whole millisecond: a row's own createdAt as `to` must include that row.
  if (query.to) conditions.push(lt(transactions.createdAt, new Date(new Date(query.to).getTime() + 1)));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      sql`(${sender.username} ILIKE ${pattern} OR ${sender.fullName} ILIKE ${pattern} OR ${receiver.username} ILIKE ${pattern} OR ${receiver.fullName} ILIKE ${pattern})`,
    );
  }
  return and(...conditions);
}

/** The whole filtered set's count, volume, and money in and out of the caller's balance (as text, exact). */
export function transactionTotalsQuery(db: Db | Tx, callerId: number, where: SQL | undefined) {
  return db
    .select({
      total: sql<number>`count(*)::int`,
      amount: sql<string>`COALESCE(sum(${transactions.amount}), 0)::text`,
      amountIn: sql<string>`COALESCE(sum(${transactions.amount}) FILTER (WHERE ${moneyIn(callerId)}), 0)::text`,
      amountOut: sql<string>`COALESCE(sum(${transactions.amount}) FILTER (WHERE ${moneyOut(callerId)}), 0)::text`,
    })
    .from(transactions)
    .innerJoin(sender, eq(sender.id, transactions.userId))
    .leftJoin(receiver, eq(receiver.id, transactions.receiverId))
    .where(where);
}

/** A page of the filtered set, newest first. */
export function transactionsPageQuery(db: Db | Tx, where: SQL | undefined, page: { limit: number; offset: number }) {
  return selectTransactions(db)
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export type TransactionTotalsRow = { total: number; amount: string; amountIn: string; amountOut: string };

/**
 * The totals and a page of a list: independent reads, side by side (on PostgreSQL each on its own
 * connection), each a named prepared statement.
 */
export async function readTransactions(
  db: Db,
  callerId: number,
  where: SQL | undefined,
  page: { limit: number; offset: number },
): Promise<{ totals: TransactionTotalsRow | undefined; rows: TransactionRow[] }> {
  const [[totals], rows] = await Promise.all([
    selectPrepared(transactionTotalsQuery(db, callerId, where)),
    selectPrepared(transactionsPageQuery(db, where, page)),
  ]);
  return { totals, rows };
}

/**
 * An export's row as the driver answers it, read by name without per-row mapping (as the
 * sales-history export's, decision 020): the time is PostgreSQL's text, exact for the keyset.
 */
export type TransactionExportRow = {
  id: number;
  created_at: string;
  type: string;
  description: string | null;
  sender_username: string;
  receiver_username: string | null;
  amount: string | number;
  status: string;
  game_code: string | null;
};

/** One keyset page of an export: the rows older than `after`, newest first. */
export function transactionExportPageStatement(where: SQL | undefined, after: TimeKey | undefined, limit: number): SQL {
  const condition = and(where, olderThan(transactions.createdAt, transactions.id, after));
  return sql`SELECT ${transactions.id}, ${transactions.createdAt}, ${transactions.type}, ${transactions.description},
      ${sender.username} AS sender_username, ${receiver.username} AS receiver_username, ${transactions.amount},
      ${transactions.status}, ${gameRounds.code} AS game_code
    FROM ${transactions} JOIN ${users} sender ON ${sender.id} = ${transactions.userId}
      LEFT JOIN ${users} receiver ON ${receiver.id} = ${transactions.receiverId}
      LEFT JOIN ${gameRounds} ON ${gameRounds.transactionId} = ${transactions.id}${whereClause(condition)}
    ORDER BY ${transactions.createdAt} DESC, ${transactions.id} DESC LIMIT ${limit}`;
}

export function transactionExportPage(
  db: Db,
  where: SQL | undefined,
  after: TimeKey | undefined,
  limit: number,
): Promise<TransactionExportRow[]> {
  return queryPrepared<TransactionExportRow>(db, transactionExportPageStatement(where, after, limit));
}
