import { sql, type SQL } from 'drizzle-orm';
import type { StatementMovement } from '@lot/domain/schemas/reports';
import { queryRows } from '../../db/client.ts';
import type { Period, Queryable } from './reports.repository.ts';

/** An account's statement (docs/product/money.md#statements): its SQL, read by statements.service.ts. */

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

export type StatementTotalsRow = {
  period_start: Date | string;
  period_end: Date | string;
  opening: string;
  closing: string;
  total_in: string;
  total_out: string;
  movements: number | string;
};

export type StatementMovementRow = {
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

const periodBounds = ({
  from,
  to,
  timeZone,
}: Period) => sql`SELECT (${from}::date)::timestamp AT TIME ZONE ${timeZone} AS period_start,
      (${to}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS period_end`;

/** An account's opening and closing balance for the period, its money in and out, and how many movements. */
export function statementTotalsStatement(userId: number, period: Period): SQL {
  const bounds = periodBounds(period);
  return sql`
    WITH bounds AS (${bounds}), moves AS (${movesOf(userId)})
    SELECT b.period_start, b.period_end,
      COALESCE(sum(m.amount) FILTER (WHERE m.at < b.period_start), 0)::text AS opening,
      COALESCE(sum(m.amount) FILTER (WHERE m.at < b.period_end), 0)::text AS closing,
      COALESCE(sum(m.amount) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end AND m.amount > 0), 0)::text AS total_in,
      COALESCE(-sum(m.amount) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end AND m.amount < 0), 0)::text AS total_out,
      count(m.tx) FILTER (WHERE m.at >= b.period_start AND m.at < b.period_end) AS movements
    FROM bounds b LEFT JOIN moves m ON true
    GROUP BY b.period_start, b.period_end`;
}

/** A page of the period's movements in order, each with the running sum since the period's start. */
export function statementMovementsStatement(
  userId: number,
  period: Period,
  page: { limit: number; offset: number },
): SQL {
  const bounds = periodBounds(period);
  return sql`
    WITH bounds AS (${bounds}), moves AS (${movesOf(userId)}),
    period AS (
      SELECT m.*, sum(m.amount) OVER (ORDER BY m.at, m.rank, m.tx ROWS UNBOUNDED PRECEDING) AS running
      FROM moves m, bounds b WHERE m.at >= b.period_start AND m.at < b.period_end
    )
    SELECT p.tx, p.at, p.kind, p.amount::text AS amount, p.running::text AS running, p.description, p.code, p.game_number,
      o.id AS other_id, o.username AS other_username, o.full_name AS other_full_name
    FROM period p LEFT JOIN users o ON o.id = p.other
    ORDER BY p.at, p.rank, p.tx
    LIMIT ${page.limit} OFFSET ${page.offset}`;
}

export async function readStatementTotals(db: Queryable, userId: number, period: Period): Promise<StatementTotalsRow> {
  const [totals] = await queryRows<StatementTotalsRow>(db, statementTotalsStatement(userId, period));
  if (!totals) throw new Error('statement totals query returned no row');
  return totals;
}

export function readStatementMovements(
  db: Queryable,
  userId: number,
  period: Period,
  page: { limit: number; offset: number },
): Promise<StatementMovementRow[]> {
  return queryRows<StatementMovementRow>(db, statementMovementsStatement(userId, period, page));
}
