import { ledgerDescription } from '@lot/domain/game';
import { formatCents } from '@lot/domain/money';
import type { ListTransactionsQuery, Transaction } from '@lot/domain/schemas/balance';
import type { Context } from '../../lib/context.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import {
  readTransactions,
  transactionExportPage,
  transactionsWhere,
  type TransactionExportRow,
  type TransactionRow,
  type TransactionsFilter,
} from './transactions.repository.ts';

function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    type: row.type,
    userId: row.userId,
    receiverId: row.receiverId,
    amount: formatCents(row.amount),
    status: row.status,
    description: ledgerDescription(row.description),
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
 * The whole filtered set's totals, signed as the caller's table signs its rows
 * (transactions.repository.ts says which rows are money in and out).
 */
export type TransactionTotals = {
  total: number;
  /** Every amount of the set, whatever its direction: the admin dashboard's volume. */
  totalAmount: string;
  totalIn: string;
  totalOut: string;
  /** In minus out. */
  net: string;
};

/** A page of the caller's ledger rows, newest first, with the totals of the whole filtered set. */
export async function listTransactions(
  ctx: Context,
  query: ListTransactionsQuery,
): Promise<{ items: Transaction[] } & TransactionTotals> {
  const where = transactionsWhere(ctx.caller, query);
  const read = await readTransactions(ctx.db, ctx.caller.id, where, query);
  const totals = read.totals ?? { total: 0, amount: '0', amountIn: '0', amountOut: '0' };
  const amountIn = BigInt(totals.amountIn);
  const amountOut = BigInt(totals.amountOut);
  return {
    items: read.rows.map(toTransaction),
    total: totals.total,
    totalAmount: formatCents(BigInt(totals.amount)),
    totalIn: formatCents(amountIn),
    totalOut: formatCents(amountOut),
    net: formatCents(amountIn - amountOut),
  };
}

/** The columns of a transactions export: what the list shows. */
export const TRANSACTION_EXPORT_COLUMNS: ExportColumn<TransactionExportRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.created_at },
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Type', type: 'text', value: (row) => row.type },
  { header: 'Description', type: 'text', value: (row) => ledgerDescription(row.description) },
  { header: 'From', type: 'text', value: (row) => row.sender_username },
  { header: 'To', type: 'text', value: (row) => row.receiver_username },
  { header: 'Amount', type: 'money', value: (row) => row.amount },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Game', type: 'text', value: (row) => row.game_code },
];

/** Every row of a transactions list's filtered set, newest first, a keyset page at a time (docs/product/reports.md#exports). */
export function transactionExportPages(ctx: Context, query: TransactionsFilter): AsyncIterable<TransactionExportRow[]> {
  const where = transactionsWhere(ctx.caller, query);
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => transactionExportPage(ctx.db, where, after, limit),
    (row) => ({ at: row.created_at, id: row.id }),
  );
}
