import { formatCents } from '@lot/domain/money';
import { ledgerMismatches, ledgerTotals, type Queryable } from './balance.repository.ts';

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

/**
 * The books must balance: every balance equals money received (top-ups, transfers in and take-backs
 * made) minus money sent or spent (transfers out, decreases, game pools, take-backs suffered), and all balances together equal
 * top-ups minus decreases and game pools. Completed rows move money, and so does a game's pool
 * while it is held (pending); a voided row's pool came back, so it moved nothing. The sums are
 * balance.repository.ts's (`LEDGER_MISMATCHES`, `LEDGER_TOTALS`, with the daily rollups summed again).
 */
export async function checkLedger(db: Queryable): Promise<LedgerReport> {
  const mismatches = await ledgerMismatches(db);
  const totals = await ledgerTotals(db);
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
