import { and, desc, eq, gte, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatCents } from '@lot/domain/money';
import type { ListTransactionsQuery, Transaction } from '@lot/domain/schemas/balance';
import { type Db, type Tx } from '../../db/client.ts';
import { queryPrepared, selectPrepared } from '../../db/prepared.ts';
import { containsPattern, whereClause } from '../../db/sql.ts';
import { gameRounds, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { keysetPages, olderThan, type ExportColumn, type TimeKey } from '../../lib/export.ts';

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

type Row = Awaited<ReturnType<ReturnType<typeof selectTransactions>['execute']>>[number];

function toTransaction(row: Row): Transaction {
  return {
    id: row.id,
    type: row.type,
    userId: row.userId,
    receiverId: row.receiverId,
    amount: formatCents(row.amount),
    status: row.status,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    user: { id: row.userId, username: row.senderUsername, fullName: row.senderFullName },
    receiver:
      row.receiverId !== null && row.receiverUsername !== null
        ? { id: row.receiverId, username: row.receiverUsername, fullName: row.receiverFullName ?? '' }
        : null,
    gameCode: row.gameCode,
    gameNumber: row.gameNumber,
  };
}

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

export type TransactionTotals = {
  total: number;
  /** Every amount of the set, whatever its direction: the admin dashboard's volume. */
  totalAmount: string;
  totalIn: string;
  totalOut: string;
  /** In minus out. */
  net: string;
};

type TransactionsFilter = Omit<ListTransactionsQuery, 'limit' | 'offset'>;

/** Which rows a list (or its export) holds: the admin every one; everyone else those they sent or received. */
function transactionsWhere(caller: Caller, query: TransactionsFilter): SQL | undefined {
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

/** A page of the caller's ledger rows, newest first, with the totals of the whole filtered set. */
export async function listTransactions(
  db: Db,
  caller: Caller,
  query: ListTransactionsQuery,
): Promise<{ items: Transaction[] } & TransactionTotals> {
  const where = transactionsWhere(caller, query);
  // The totals and the page are independent reads, side by side (on PostgreSQL each on its own connection).
  const [[totals = { total: 0, amount: '0', amountIn: '0', amountOut: '0' }], rows] = await Promise.all([
    selectPrepared(
      db
        .select({
          total: sql<number>`count(*)::int`,
          amount: sql<string>`COALESCE(sum(${transactions.amount}), 0)::text`,
          amountIn: sql<string>`COALESCE(sum(${transactions.amount}) FILTER (WHERE ${moneyIn(caller.id)}), 0)::text`,
          amountOut: sql<string>`COALESCE(sum(${transactions.amount}) FILTER (WHERE ${moneyOut(caller.id)}), 0)::text`,
        })
        .from(transactions)
        .innerJoin(sender, eq(sender.id, transactions.userId))
        .leftJoin(receiver, eq(receiver.id, transactions.receiverId))
        .where(where),
    ),
    selectPrepared(
      selectTransactions(db)
        .where(where)
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .limit(query.limit)
        .offset(query.offset),
    ),
  ]);
  const amountIn = BigInt(totals.amountIn);
  const amountOut = BigInt(totals.amountOut);
  return {
    items: rows.map(toTransaction),
    total: totals.total,
    totalAmount: formatCents(BigInt(totals.amount)),
    totalIn: formatCents(amountIn),
    totalOut: formatCents(amountOut),
    net: formatCents(amountIn - amountOut),
  };
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

/** The columns of a transactions export: what the list shows. */
export const TRANSACTION_EXPORT_COLUMNS: ExportColumn<TransactionExportRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.created_at },
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Type', type: 'text', value: (row) => row.type },
  { header: 'Description', type: 'text', value: (row) => row.description },
  { header: 'From', type: 'text', value: (row) => row.sender_username },
  { header: 'To', type: 'text', value: (row) => row.receiver_username },
  { header: 'Amount', type: 'money', value: (row) => row.amount },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Game', type: 'text', value: (row) => row.game_code },
];

/** Every row of a transactions list's filtered set, newest first, a keyset page at a time (docs/product/reports.md#exports). */
export function transactionExportPages(
  db: Db,
  caller: Caller,
  query: TransactionsFilter,
): AsyncIterable<TransactionExportRow[]> {
  const where = transactionsWhere(caller, query);
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => {
      const condition = and(where, olderThan(transactions.createdAt, transactions.id, after));
      return queryPrepared<TransactionExportRow>(
        db,
        sql`SELECT ${transactions.id}, ${transactions.createdAt}, ${transactions.type}, ${transactions.description},
            ${sender.username} AS sender_username, ${receiver.username} AS receiver_username, ${transactions.amount},
            ${transactions.status}, ${gameRounds.code} AS game_code
          FROM ${transactions} JOIN ${users} sender ON ${sender.id} = ${transactions.userId}
            LEFT JOIN ${users} receiver ON ${receiver.id} = ${transactions.receiverId}
            LEFT JOIN ${gameRounds} ON ${gameRounds.transactionId} = ${transactions.id}${whereClause(condition)}
          ORDER BY ${transactions.createdAt} DESC, ${transactions.id} DESC LIMIT ${limit}`,
      );
    },
    (row) => ({ at: row.created_at, id: row.id }),
  );
}
