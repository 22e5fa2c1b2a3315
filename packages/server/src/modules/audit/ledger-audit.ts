import { ledgerAuditRows, type Db, type LedgerAuditRow as Row } from './audit.repository.ts';

/** One ledger row and its audit row that do not agree, or one of them alone. */
export type LedgerAuditMismatch = {
  ledgerId: number | null;
  auditId: number | null;
  /** A plain sentence naming both sides. */
  problem: string;
};

export type LedgerAuditReport = {
  ok: boolean;
  /** Ledger rows compared (those after the baseline). */
  ledgerRows: number;
  /** Audit rows that record a ledger movement. */
  auditRows: number;
  /** Ledger rows up to this id predate the audit trail and are not compared. */
  ledgerFrom: number;
  /** Game pools up to this id predate `game.frozen` rows: compared through their settlement or void only (decision 059). */
  poolsFrom: number;
  mismatches: LedgerAuditMismatch[];
  /** All mismatches, of which `mismatches` holds the first ones. */
  total: number;
};

/** Mismatches listed in full; the rest are counted. */
const LISTED = 20;

/**
 * The ledger and the audit trail compared, both ways, in one statement (decision 044). Each ledger
 * row after the baseline expects its audit rows: a top-up, transfer, correction or take-back the
 * `money.*` row naming it (`target_id`) with the same action, amount, sender, receiver, actor and
 * target user; a game's pool the `game.frozen` row of the round that holds it (same amount, shop
 * and actor), and once settled or voided its `game.settled` or `game.voided` row (same amount and
 * shop). Every such audit row expects its ledger row the same way. Both sides are full scans joined
 * by hash, so the cost grows with the ledger, once.
 */
export async function compareLedgerWithAudit(db: Db): Promise<LedgerAuditReport> {
  const rows = await ledgerAuditRows(db, LISTED);
  const first = rows[0];
  const mismatches = rows.filter((row) => row.action !== null).map(describeMismatch);
  return {
    ok: mismatches.length === 0,
    ledgerRows: Number(first?.ledger_rows ?? 0),
    auditRows: Number(first?.audit_rows ?? 0),
    ledgerFrom: Number(first?.ledger_from ?? 0),
    poolsFrom: Number(first?.pools_from ?? 0),
    mismatches,
    total: Number(first?.total ?? 0),
  };
}

const cents = (value: string) => {
  const n = BigInt(value);
  return `${n / 100n}.${(n % 100n).toString().padStart(2, '0')}`;
};
const who = (id: number | string | null | undefined) => (id === null || id === undefined ? 'nobody' : `user ${id}`);

/** "ledger entry 123 (transfer of 100.00 from user 5 to user 7): its audit row 456 says 1.00". */
function describeMismatch(row: Row): LedgerAuditMismatch {
  const ledgerId = row.ledger_id === null ? null : Number(row.ledger_id);
  const auditId = row.audit_id === null ? null : Number(row.audit_id);
  const action = row.action ?? '';
  const entry =
    row.type === null || row.amount === null
      ? ''
      : row.type === 'game'
        ? `ledger entry ${ledgerId} (game pool of ${cents(row.amount)} from ${who(row.user_id)})`
        : `ledger entry ${ledgerId} (${row.type} of ${cents(row.amount)} from ${who(row.user_id)}${
            row.receiver_id === null ? '' : ` to ${who(row.receiver_id)}`
          })`;
  if (auditId === null) return { ledgerId, auditId, problem: `${entry}: no ${action} audit row records it` };
  const said = `${action} of ${row.audit_amount ?? 'no amount'}`;
  if (ledgerId === null) {
    const parties = action.startsWith('money.')
      ? ` from ${who(row.audit_from)}${row.audit_to === null ? '' : ` to ${who(row.audit_to)}`}`
      : ` for ${who(row.audit_target_user)}`;
    return { ledgerId, auditId, problem: `audit row ${auditId} (${said}${parties}): no ledger entry matches it` };
  }
  const amount = row.amount === null ? null : cents(row.amount);
  const differences: string[] = [];
  if (row.audit_amount !== amount) differences.push(row.audit_amount ?? 'no amount');
  if (row.type !== 'game' && row.type !== null) {
    if (row.audit_from !== String(row.user_id)) differences.push(`from ${who(row.audit_from)}`);
    if (row.audit_to !== (row.receiver_id === null ? null : String(row.receiver_id)))
      differences.push(`to ${who(row.audit_to)}`);
  }
  if (row.audit_target_user !== row.target_user) differences.push(`about ${who(row.audit_target_user)}`);
  if (row.actor_id !== null && row.audit_actor !== row.actor_id) differences.push(`done by ${who(row.audit_actor)}`);
  return { ledgerId, auditId, problem: `${entry}: its audit row ${auditId} says ${differences.join(', ')}` };
}

/** The report as `audit:verify` prints it, naming the first mismatch. */
export function describeLedgerAudit(report: LedgerAuditReport): string[] {
  const scope = [
    report.ledgerFrom > 0 ? ` (entries up to ${report.ledgerFrom} predate the audit trail)` : '',
    report.poolsFrom > report.ledgerFrom
      ? ` (game pools up to ${report.poolsFrom} predate game.frozen: compared through their settlement or void)`
      : '',
  ].join('');
  if (report.ok)
    return [`OK: ${report.ledgerRows} ledger entries and ${report.auditRows} audit rows of money agree${scope}.`];
  const first = report.mismatches[0];
  return [
    `FAILED: ${report.total} mismatch${report.total === 1 ? '' : 'es'} between the ledger and the audit trail${scope}.`,
    first ? `First mismatch: ${first.problem}` : '',
    ...report.mismatches.map((m) => `  ${m.problem}`),
    ...(report.total > report.mismatches.length ? [`  … and ${report.total - report.mismatches.length} more`] : []),
  ];
}
