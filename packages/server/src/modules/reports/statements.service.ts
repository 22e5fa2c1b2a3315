import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import { ledgerDescription } from '@lot/domain/game';
import { formatCents } from '@lot/domain/money';
import type { Statement, StatementMovement, StatementQuery } from '@lot/domain/schemas/reports';
import type { Context } from '../../lib/context.ts';
import { findInScope } from '../users/users.repository.ts';
import { readStatementMovements, readStatementTotals } from './statements.repository.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

/**
 * An account's statement (docs/product/money.md#statements): its owner, its upline in scope and
 * the admin may read it; anyone else is answered 404, as if it did not exist. The period is whole
 * local days in `tz`, `from` to `to` inclusive. opening + movements = closing exactly, and the
 * closing of a period that ends after now is the balance. Every movement of the account's balance
 * is placed in time as the day close places them (reports.repository.ts `movesOf`).
 */
export async function statement(ctx: Context, userId: number, query: StatementQuery): Promise<Statement> {
  const account = await findInScope(ctx.db, ctx.caller, userId);
  if (!account) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const period = { from: query.from, to: query.to, timeZone };
  const totals = await readStatementTotals(ctx.db, account.id, period);
  const rows = await readStatementMovements(ctx.db, account.id, period, query);
  const opening = BigInt(totals.opening);
  const closing = BigInt(totals.closing);
  const totalIn = BigInt(totals.total_in);
  const totalOut = BigInt(totals.total_out);
  if (opening + totalIn - totalOut !== closing) throw new Error(`statement of user ${account.id} does not add up`);
  const movements = rows.map((row): StatementMovement => ({
    transactionId: Number(row.tx),
    at: new Date(row.at).toISOString(),
    kind: row.kind,
    amount: formatCents(BigInt(row.amount)),
    balance: formatCents(opening + BigInt(row.running)),
    description: ledgerDescription(row.description),
    counterparty:
      row.other_id === null || row.other_username === null
        ? null
        : { id: Number(row.other_id), username: row.other_username, fullName: row.other_full_name ?? '' },
    gameCode: row.code,
    gameNumber: row.game_number === null ? null : Number(row.game_number),
  }));
  const first = rows[0];
  const pageOpening = first ? opening + BigInt(first.running) - BigInt(first.amount) : null;
  return {
    userId: account.id,
    username: account.username,
    fullName: account.fullName,
    role: account.role,
    timeZone,
    from: new Date(totals.period_start).toISOString(),
    to: new Date(totals.period_end).toISOString(),
    openingBalance: formatCents(opening),
    closingBalance: formatCents(closing),
    totalIn: formatCents(totalIn),
    totalOut: formatCents(totalOut),
    total: Number(totals.movements),
    limit: query.limit,
    offset: query.offset,
    // An empty page (past the end) starts where the period closes.
    pageOpeningBalance: formatCents(pageOpening ?? (query.offset === 0 ? opening : closing)),
    movements,
  };
}
