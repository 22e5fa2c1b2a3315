import { sql } from 'drizzle-orm';
import { formatCents } from '@lot/domain/money';
import { queryRows, type Db } from '../../db/client.ts';

export type LedgerReport = {
  ok: boolean;
  users: number;
  transactions: number;
  /** Balances that differ from the sum of their ledger rows. */
  mismatches: { userId: number; balance: string; ledger: string }[];
  negative: number;
  /** Games whose held pool disagrees with the game: a drawing game's row pending, a settled one's
   * completed, a voided one's voided, each for exactly the pool. */
  holds: number;
  /** Cells of the daily rollups (`sales_daily`, `branch_daily`, `money_daily`) that differ from the
   * games and the ledger summed again. */
  rollups: number;
  totals: { balances: string; topups: string; withdrawn: string; expected: string };
};

const GAME_SUMS = sql`count(*) AS games, sum(selected_count) AS numbers, sum(pool) AS pool,
  sum(total_prize) AS prizes, sum(commission) AS commission`;
const DAY = sql`(created_at AT TIME ZONE 'UTC')::date`;
/** Rollup cell and recomputed cell, missing ones as zeros: a row that differs counts. */
const differs = (a: string, b: string, columns: string[]) =>
  sql.raw(
    `ROW(${columns.map((c) => `COALESCE(${a}.${c}, 0)`).join(', ')}) <> ROW(${columns.map((c) => `COALESCE(${b}.${c}, 0)`).join(', ')})`,
  );
const FIGURES = ['games', 'numbers', 'pool', 'prizes', 'commission'];

/** The daily rollups the reports read (decision 023), each summed again from what it rolls up. */
const ROLLUP_MISMATCHES = sql`
  (SELECT count(*) FROM sales_daily d
    FULL JOIN (SELECT COALESCE(superagent_id, 0) AS superagent_id, ${DAY} AS day, ${GAME_SUMS} FROM games GROUP BY 1, 2) g
      ON g.superagent_id = d.superagent_id AND g.day = d.day
    WHERE ${differs('d', 'g', FIGURES)})
  + (SELECT count(*) FROM branch_daily d
    FULL JOIN (SELECT COALESCE(superagent_id, 0) AS superagent_id,
                 CASE WHEN parent_id IS NULL OR parent_id = superagent_id THEN user_id ELSE parent_id END AS branch_id,
                 ${DAY} AS day, ${GAME_SUMS} FROM games GROUP BY 1, 2, 3) g
      ON g.superagent_id = d.superagent_id AND g.branch_id = d.branch_id AND g.day = d.day
    WHERE ${differs('d', 'g', FIGURES)})
  + (SELECT count(*) FROM money_daily d
    FULL JOIN (SELECT day, from_top, to_top, type, sum(amount) AS amount FROM (
                 SELECT ${DAY} AS day, account_top(user_id) AS from_top, account_top(receiver_id) AS to_top, type, amount
                 FROM transactions WHERE type IN ('topup', 'transfer', 'takeback') AND status = 'completed') m
               WHERE from_top <> to_top GROUP BY 1, 2, 3, 4) t
      ON t.day = d.day AND t.from_top = d.from_top AND t.to_top = d.to_top AND t.type = d.type
    WHERE ${differs('d', 't', ['amount'])})`;

/**
 * The books must balance: every balance equals money received (top-ups, transfers in and take-backs
 * made) minus money sent or spent (transfers out, decreases, game pools, take-backs suffered), and all balances together equal
 * top-ups minus decreases and game pools. Completed rows move money, and so does a game's pool
 * while it is held (pending); a voided row's pool came back, so it moved nothing.
 */
export async function checkLedger(db: Db): Promise<LedgerReport> {
  const mismatches = await queryRows<{ user_id: number; balance: string; ledger: string }>(
    db,
    sql`
    WITH flows AS (
      SELECT receiver_id AS user_id, amount FROM transactions
        WHERE status = 'completed' AND receiver_id IS NOT NULL
      UNION ALL
      SELECT user_id, -amount FROM transactions
        WHERE status IN ('completed', 'pending') AND type IN ('transfer', 'decrease', 'game', 'takeback')
    ), sums AS (
      SELECT user_id, sum(amount) AS total FROM flows GROUP BY user_id
    )
    SELECT b.user_id, b.amount::text AS balance, COALESCE(s.total, 0)::text AS ledger
    FROM balances b FULL JOIN sums s ON s.user_id = b.user_id
    WHERE COALESCE(b.amount, 0) <> COALESCE(s.total, 0)
    ORDER BY 1`,
  );
  const [totals] = await queryRows<{
    users: string;
    negative: string;
    balances: string;
    topups: string;
    withdrawn: string;
    transactions: string;
    holds: string;
    rollups: string;
  }>(
    db,
    sql`
      SELECT
        (SELECT count(*) FROM balances)::text AS users,
        (SELECT count(*) FROM balances WHERE amount < 0)::text AS negative,
        (SELECT COALESCE(sum(amount), 0) FROM balances)::text AS balances,
        (SELECT COALESCE(sum(amount), 0) FROM transactions WHERE status = 'completed' AND type = 'topup')::text AS topups,
        (SELECT COALESCE(sum(amount), 0) FROM transactions WHERE status IN ('completed', 'pending') AND type IN ('decrease', 'game'))::text AS withdrawn,
        (SELECT count(*) FROM transactions)::text AS transactions,
        (SELECT count(*) FROM game_rounds r LEFT JOIN transactions t ON t.id = r.transaction_id
          WHERE (r.status IN ('drawing', 'settled', 'voided')) AND (t.id IS NULL
            OR t.status <> CASE r.status WHEN 'drawing' THEN 'pending' WHEN 'settled' THEN 'completed' ELSE 'voided' END
            OR t.amount <> r.bet_amount * jsonb_array_length(r.entries)))::text AS holds,
        (${ROLLUP_MISMATCHES})::text AS rollups`,
  );
  if (!totals) throw new Error('ledger totals query returned no row');
  const expected = BigInt(totals.topups) - BigInt(totals.withdrawn);
  const report = {
    users: Number(totals.users),
    transactions: Number(totals.transactions),
    mismatches: mismatches.map((row) => ({
      userId: Number(row.user_id),
      balance: formatCents(BigInt(row.balance)),
      ledger: formatCents(BigInt(row.ledger)),
    })),
    negative: Number(totals.negative),
    holds: Number(totals.holds),
    rollups: Number(totals.rollups),
    totals: {
      balances: formatCents(BigInt(totals.balances)),
      topups: formatCents(BigInt(totals.topups)),
      withdrawn: formatCents(BigInt(totals.withdrawn)),
      expected: formatCents(expected),
    },
  };
  return {
    ok:
      report.mismatches.length === 0 &&
      report.negative === 0 &&
      report.holds === 0 &&
      report.rollups === 0 &&
      BigInt(totals.balances) === expected,
    ...report,
  };
}
