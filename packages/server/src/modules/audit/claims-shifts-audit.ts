import type { Db } from './audit.repository.ts';
import { claimsAuditRows, shiftsAuditRows, type CounterAuditRow } from './claims-shifts-audit.repository.ts';

/**
 * The counter's records held to the audit trail (issue 44, decision 087), as the ledger is
 * (decision 044): a prize claim paid, and a shift closed with its Z report, each wrote its audit row
 * in the same statement or transaction, and those rows are hash-chained (decision 029). A claim set
 * back to unpaid and paid again, a closed shift's figures or stored Z report rewritten, or a Z
 * deleted, all straight in SQL with the triggers off, no longer match them.
 */

/** One claim, shift or shop whose rows and audit rows do not agree. */
export type CounterAuditMismatch = {
  /** A prize claim (its winner id), a shift (its id), or a shop whose Z numbers have a gap (its user id). */
  kind: 'claim' | 'shift' | 'shop';
  id: number;
  /** A plain sentence naming it and each field that differs. */
  problem: string;
};

export type CounterAuditReport = {
  ok: boolean;
  /** Paid prize claims compared. */
  claims: number;
  /** Closed shifts compared. */
  shifts: number;
  mismatches: CounterAuditMismatch[];
  /** All mismatches, of which `mismatches` holds the first ones of each statement. */
  total: number;
};

/** Mismatches listed in full per statement; the rest are counted. */
const LISTED = 20;

type Fields = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const shown = (value: unknown) => (value === null || value === undefined ? 'none' : String(value));
const who = (id: unknown) => (id === null || id === undefined ? 'nobody' : `user ${String(id)}`);
const shop = (f: Fields, id: unknown) => `shop ${f.shopName ? `${String(f.shopName)} (user ${shown(id)})` : who(id)}`;
const quoted = (value: unknown) => (value === null || value === undefined ? 'none' : JSON.stringify(value));

type Side = [label: string, said: unknown, has: unknown, show?: (value: unknown) => string];

/** "amount 30.00 (the claim has 300.00)" for each field whose audit row and stored row differ. */
function differences(holder: string, sides: Side[]): string[] {
  return sides
    .filter(([, said, has]) => text(said) !== text(has))
    .map(([label, said, has, show = shown]) => `${label} ${show(said)} (${holder} has ${show(has)})`);
}

/** "prize claim 45 (game LOT-AB12, 30.00 at shop user_one (user 7)): …" */
function describeClaim(id: number, f: Fields): string {
  const what = [f.game ? `game ${String(f.game)}` : null, f.amount].filter(Boolean).join(', ');
  const about = `prize claim ${id} (${what} at ${shop(f, f.shop)})`;
  const audit = shown(f.auditId);
  if (!f.found)
    return `audit row ${audit} (claim.paid of prize claim ${id}, ${shown(f.auditAmount)} at ${shop(f, f.auditShop)}): no prize claim has winner id ${id}: it was deleted`;
  if (f.auditId === null) return `${about}: paid, but no claim.paid audit row records it`;
  if (Number(f.rows) > 1)
    return `${about}: ${String(f.rows)} claim.paid audit rows (${String(f.ids)}): paid more than once`;
  if (f.status !== 'paid')
    return `${about}: ${String(f.status)}, but its claim.paid audit row ${audit} says it was paid`;
  const fields = differences('the claim', [
    ['amount', f.auditAmount, f.amount],
    ['shift', f.auditShift, f.shift],
    ['claimer', f.auditClaimer, f.claimer, quoted],
    ['paid by', f.auditPayer, f.payer, who],
    ['shop', f.auditShop, f.shop, who],
    ['paid at', f.auditAt, f.paidAt],
  ]);
  return `${about}: its claim.paid audit row ${audit} says ${fields.join(', ')}`;
}

/** The figures a close records, as its audit row says them and as `stored` (the row, or its Z report) holds them. */
function figures(f: Fields, stored: unknown[]): Side[] {
  const said = [f.auditZ, f.auditExpected, f.auditCounted, f.auditVariance, f.auditReason];
  return (['Z', 'expected', 'counted', 'variance', 'reason'] as const).map((label, i) => [
    label,
    said[i],
    stored[i],
    label === 'reason' ? quoted : shown,
  ]);
}

/** "shift 12 (Z 3 of shop user_one (user 7)): …" */
function describeShift(id: number, f: Fields): string {
  const z = f.z ?? f.auditZ;
  const about = `shift ${id} (${z === null || z === undefined ? '' : `Z ${String(z)} of `}${shop(f, f.shop)})`;
  const audit = shown(f.auditId);
  if (!f.found)
    return `audit row ${audit} (shift.closed of shift ${id}, Z ${shown(f.auditZ)} of ${shop(f, f.auditShop)}): no shift has id ${id}: it was deleted`;
  if (f.auditId === null) return `${about}: closed, but no shift.closed audit row records it`;
  if (Number(f.rows) > 1) return `${about}: ${String(f.rows)} shift.closed audit rows (${String(f.ids)})`;
  if (!f.closed)
    return `${about}: open, but its shift.closed audit row ${audit} says it closed as Z ${shown(f.auditZ)}`;
  const row = differences('the shift', [
    ...figures(f, [f.z, f.expected, f.counted, f.variance, f.reason]),
    ['closed by', f.auditCloser, f.closer, who],
    ['shop', f.auditShop, f.shop, who],
  ]);
  const report = differences(
    'the stored Z report',
    figures(f, [f.reportZ, f.reportExpected, f.reportCounted, f.reportVariance, f.reportReason]),
  );
  const changed = f.auditHash !== null && f.reportHash !== f.auditHash;
  const problems = [
    ...(row.length > 0 || report.length > 0
      ? [`its shift.closed audit row ${audit} says ${[...row, ...report].join(', ')}`]
      : []),
    ...(changed
      ? [
          `the stored Z report no longer hashes to the zReportHash of audit row ${audit}: it was changed after the close`,
        ]
      : []),
  ];
  return `${about}: ${problems.join('; ')}`;
}

/** "shop user_one (user 7): Z 3 is missing (its Z numbers run to 4)" */
function describeShop(id: number, f: Fields): string {
  const numbers = (f.numbers as number[]).join(', ');
  const missing = Number(f.missing);
  const list =
    missing > 10 ? `${numbers}, … (${missing} numbers) are` : missing === 1 ? `${numbers} is` : `${numbers} are`;
  return `${shop(f, id)}: Z ${list} missing (its Z numbers run to ${String(f.top)})`;
}

function mismatchOf(row: CounterAuditRow): CounterAuditMismatch | undefined {
  if (row.kind === null || row.fields === null) return undefined;
  const id = Number(row.id);
  const problem =
    row.kind === 'claim'
      ? describeClaim(id, row.fields)
      : row.kind === 'shift'
        ? describeShift(id, row.fields)
        : describeShop(id, row.fields);
  return { kind: row.kind, id, problem };
}

/**
 * Every paid prize claim and every closed shift compared with its audit row, both ways, one
 * statement each (decision 087), as the ledger is (decision 044): a paid claim has exactly one
 * `claim.paid` row (no winner two) with the same amount, shift, claimer, payer, shop and time; a
 * closed shift its one `shift.closed` row with the same Z number, expected and counted cash,
 * variance, closer and shop, which its stored Z report shows too and, for a close that recorded it,
 * hashes to; each shop's Z numbers run 1…n without a gap. Each statement reads the claims or the
 * shifts once and the audit rows of its action once, joined by hash.
 */
export async function compareClaimsAndShiftsWithAudit(db: Db): Promise<CounterAuditReport> {
  const claims = await claimsAuditRows(db, LISTED);
  const shifts = await shiftsAuditRows(db, LISTED);
  const mismatches = [...claims, ...shifts].map(mismatchOf).filter((m) => m !== undefined);
  const total = Number(claims[0]?.total ?? 0) + Number(shifts[0]?.total ?? 0);
  return {
    ok: total === 0,
    claims: Number(claims[0]?.compared ?? 0),
    shifts: Number(shifts[0]?.compared ?? 0),
    mismatches,
    total,
  };
}

/** The report as `audit:verify` prints it, naming the first mismatch. */
export function describeClaimsAndShiftsAudit(report: CounterAuditReport): string[] {
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (report.ok)
    return [
      `OK: ${count(report.claims, 'paid prize claim')} and ${count(report.shifts, 'closed shift')} agree with their audit rows; every shop's Z numbers run without a gap.`,
    ];
  const first = report.mismatches[0];
  return [
    `FAILED: ${report.total} mismatch${report.total === 1 ? '' : 'es'} between the prize claims, the shifts and the audit trail.`,
    first ? `First mismatch: ${first.problem}` : '',
    ...report.mismatches.map((m) => `  ${m.problem}`),
    ...(report.total > report.mismatches.length ? [`  … and ${report.total - report.mismatches.length} more`] : []),
  ];
}
