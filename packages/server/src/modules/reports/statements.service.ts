import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import type { Statement, StatementMovement, StatementQuery } from '@lot/domain/schemas/reports';
import { queryRows, type Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import { findInScope } from '../users/users.repository.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

/**
 * Every movement of one account's balance, from the ledger, with the ledger's rules placed in time
 * exactly as the day close places them (docs/product/money.md#day-close, decision 014): a completed
 * top-up, transfer, correction or take-back moves money when it is made; a game's pool leaves when
 * its first draw holds it, whatever becomes of it; a voided game's pool comes back when it is
 * voided. A settled game is listed when it settles, moving nothing. `rank` orders what happens at
 * the same instant (a one-prize game is held and settled by the same draw).
 */
function movesOf(userId: number): SQL {
  const u = userId;
  return sql`
    SELECT t.id AS tx, t.created_at AS at, 0 AS rank, 'topup' AS kind, t.amount AS amount, t.user_id AS other,
        NULL::text AS description, NULL::text AS code, NULL::int AS game_number
      FROM transactions t WHERE t.receiver_id = ${u} AND t.type = 'topup' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 0, 'transferIn', t.amount, t.user_id, NULL, NULL, NULL
      FROM transactions t WHERE t.receiver_id = ${u} AND t.type = 'transfer' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 0, 'transferOut', -t.amount, t.receiver_id, NULL, NULL, NULL
      FROM transactions t WHERE t.user_id = ${u} AND t.type = 'transfer' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 0, 'correction', -t.amount, t.actor_id, t.description, NULL, NULL
      FROM transactions t WHERE t.user_id = ${u} AND t.type = 'decrease' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 0, 'takeBackIn', t.amount, t.user_id, t.description, NULL, NULL
      FROM transactions t WHERE t.receiver_id = ${u} AND t.type = 'takeback' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 0, 'takeBackOut', -t.amount, t.receiver_id, t.description, NULL, NULL
      FROM transactions t WHERE t.user_id = ${u} AND t.type = 'takeback' AND t.status = 'completed'
    UNION ALL
    SELECT t.id, t.created_at, 1, 'gamePoolHeld', -t.amount, NULL, NULL, r.code, r.number
      FROM transactions t LEFT JOIN game_rounds r ON r.transaction_id = t.id
      WHERE t.user_id = ${u} AND t.type = 'game' AND t.status IN ('pending', 'completed', 'voided')
    UNION ALL
    SELECT g.transaction_id, g.created_at, 2, 'gameSettled', 0, NULL, t.description, r.code, r.number
      FROM games g JOIN transactions t ON t.id = g.transaction_id
      LEFT JOIN game_rounds r ON r.transaction_id = g.transaction_id
      WHERE g.user_id = ${u}
    UNION ALL
    SELECT t.id, COALESCE(r.ended_at, t.created_at), 3, 'gamePoolReturned', t.amount, NULL, r.void_reason, r.code, r.number
      FROM transactions t LEFT JOIN game_rounds r ON r.transaction_id = t.id
      WHERE t.user_id = ${u} AND t.type = 'game' AND t.status = 'voided'`;
}

type Totals = {
  period_start: Date | string;
  period_end: Date | string;
  opening: string;
  closing: string;
  total_in: string;
  total_out: string;
  movements: number | string;
};

type MovementRow = {
  tx: number;
  at: Date | string;
  kind: StatementMovement['kind'];
  amount: string;
  running: string;
  description: string | null;
  code: string | null;
  game_number: number | null;
  other_id: number | null;
  other_username: string | null;
  other_full_name: string | null;
};

/**
 * An account's statement (docs/product/money.md#statements): its owner, its upline in scope and
 * the admin may read it; anyone else is answered 404, as if it did not exist. The period is whole
 * local days in `tz`, `from` to `to` inclusive. opening + movements = closing exactly, and the
 * closing of a period that ends after now is the balance.
 */
export async function statement(db: Db, caller: Caller, userId: number, query: StatementQuery): Promise<Statement> {
  const account = await findInScope(db, caller, userId);
  if (!account) throw new AppError('NOT_FOUND', 'User not found');
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const bounds = sql`SELECT (${query.from}::date)::timestamp AT TIME ZONE ${timeZone} AS period_start,
      (${query.to}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS period_end`;
  const [totals] = await queryRows<Totals>(
    db,
    sql`
    WITH bounds AS (${bounds}), moves AS (${movesOf(account.id)})
    SELECT b.period_start, b.period_end,
      COALESCE(sum(m.amount) FILTER (WHERE m.at < b.period_start), 0)::text AS opening,
      COALESCE(sum(m.amount) FILTER (WHERE m.at < b.period_end), 0)::text AS closing,
      COALESCE(sum(m.amount) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end AND m.amount > 0), 0)::text AS total_in,
      COALESCE(-sum(m.amount) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end AND m.amount < 0), 0)::text AS total_out,
      count(m.tx) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end) AS movements
    FROM bounds b LEFT JOIN moves m ON true
    GROUP BY b.period_start, b.period_end`,
  );
  if (!totals) throw new Error('statement totals query returned no row');
  const rows = await queryRows<MovementRow>(
    db,
    sql`
    WITH bounds AS (${bounds}), moves AS (${movesOf(account.id)}),
    period AS (
      SELECT m.*, sum(m.amount) OVER (ORDER BY m.at, m.rank, m.tx ROWS UNBOUNDED PRECEDING) AS running
      FROM moves m, bounds b WHERE m.at >= b.period_start AND m.at < b.period_end
    )
    SELECT p.tx, p.at, p.kind, p.amount::text AS amount, p.running::text AS running, p.description, p.code, p.game_number,
      o.id AS other_id, o.username AS other_username, o.full_name AS other_full_name
    FROM period p LEFT JOIN users o ON o.id = p.other
    ORDER BY p.at, p.rank, p.tx
    LIMIT ${query.limit} OFFSET ${query.offset}`,
  );
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
    description: row.description,
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
