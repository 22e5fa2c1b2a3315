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
  totals: { balances: string; topups: string; withdrawn: string; expected: string };
};

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
            OR t.amount <> r.bet_amount * jsonb_array_length(r.entries)))::text AS holds`,
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
      BigInt(totals.balances) === expected,
    ...report,
  };
}
