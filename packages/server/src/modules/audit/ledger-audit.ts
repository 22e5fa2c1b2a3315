import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

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
  mismatches: LedgerAuditMismatch[];
  /** All mismatches, of which `mismatches` holds the first ones. */
  total: number;
};

/** Mismatches listed in full; the rest are counted. */
const LISTED = 20;

/** Cents as the audit rows write them: `1.00`, `100000.00` (`formatCents`, and `decimal` in the money statement). */
const decimal = (cents: string) => sql.raw(`((${cents})::numeric / 100)::numeric(20, 2)::text`);

type Row = {
  ledger_id: number | null;
  audit_id: string | null;
  type: string | null;
  amount: string | null;
  user_id: number | null;
  receiver_id: number | null;
  target_user: number | null;
  actor_id: number | null;
  action: string | null;
  audit_amount: string | null;
  audit_from: string | null;
  audit_to: string | null;
  audit_target_user: number | null;
  audit_actor: number | null;
  total: string;
};

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
  const rows = await queryRows<Row & { ledger_rows: string; audit_rows: string; ledger_from: number }>(
    db,
    sql`
    WITH base AS MATERIALIZED (
      SELECT COALESCE((SELECT ledger_from FROM audit_baseline WHERE id = 1), 0) AS ledger_from
    ),
    ledger AS MATERIALIZED (
      SELECT t.* FROM transactions t, base WHERE t.id > base.ledger_from
    ),
    expected AS (
      SELECT id AS ledger_id, type, amount, user_id, receiver_id,
        CASE type WHEN 'topup' THEN 'money.topup' WHEN 'transfer' THEN 'money.transfer'
          WHEN 'decrease' THEN 'money.correction' ELSE 'money.takeback' END AS action,
        'transaction' AS kind, id::bigint AS target_id, actor_id,
        CASE WHEN type IN ('topup', 'transfer') THEN receiver_id ELSE user_id END AS target_user
      FROM ledger WHERE type <> 'game'
      UNION ALL
      SELECT l.id, l.type, l.amount, l.user_id, l.receiver_id, s.action, 'game', r.id::bigint,
        CASE WHEN s.action = 'game.frozen' THEN l.actor_id END, l.user_id
      FROM ledger l
      LEFT JOIN game_rounds r ON r.transaction_id = l.id
      JOIN (VALUES ('game.frozen', NULL), ('game.settled', 'completed'), ('game.voided', 'voided'))
        AS s (action, status) ON s.status IS NULL OR s.status = l.status
      WHERE l.type = 'game'
    ),
    actual AS (
      SELECT a.id AS audit_id, a.action, a.target_kind AS kind, a.target_id, a.actor_id, a.target_user_id,
        CASE WHEN a.action LIKE 'money.%' THEN a.details->>'amount'
          WHEN a.action = 'game.voided' THEN a.details->>'returned' ELSE a.details->>'pool' END AS amount,
        a.details->>'from' AS from_id, a.details->>'to' AS to_id
      FROM audit_log a, base
      WHERE (a.action IN ('money.topup', 'money.transfer', 'money.correction', 'money.takeback')
          AND (a.target_kind IS DISTINCT FROM 'transaction' OR a.target_id IS NULL OR a.target_id > base.ledger_from))
        OR (a.action IN ('game.frozen', 'game.settled')
          OR (a.action = 'game.voided' AND a.details ? 'returned'))
          AND NOT EXISTS (SELECT 1 FROM game_rounds r
            WHERE r.id = a.target_id AND a.target_kind = 'game' AND r.transaction_id <= base.ledger_from)
    ),
    pairs AS (
      SELECT e.ledger_id, a.audit_id, e.type, e.amount, e.user_id, e.receiver_id, e.target_user, e.actor_id,
        COALESCE(e.action, a.action) AS action, a.amount AS audit_amount, a.from_id AS audit_from,
        a.to_id AS audit_to, a.target_user_id AS audit_target_user, a.actor_id AS audit_actor,
        e.kind AS e_kind
      FROM expected e
      FULL JOIN actual a ON a.action = e.action AND a.kind = e.kind AND a.target_id = e.target_id
    ),
    bad AS (
      SELECT * FROM pairs
      WHERE ledger_id IS NULL OR audit_id IS NULL
        OR audit_amount IS DISTINCT FROM ${decimal('amount')}
        OR audit_target_user IS DISTINCT FROM target_user
        OR (actor_id IS NOT NULL AND audit_actor IS DISTINCT FROM actor_id)
        OR (e_kind = 'transaction' AND (audit_from IS DISTINCT FROM user_id::text
          OR audit_to IS DISTINCT FROM receiver_id::text))
    )
    SELECT b.ledger_id, b.audit_id::text, b.type, b.amount::text, b.user_id, b.receiver_id, b.target_user,
      b.actor_id, b.action, b.audit_amount, b.audit_from, b.audit_to, b.audit_target_user, b.audit_actor,
      (SELECT count(*) FROM bad)::text AS total,
      (SELECT count(*) FROM ledger)::text AS ledger_rows,
      (SELECT count(*) FROM actual)::text AS audit_rows,
      (SELECT ledger_from FROM base) AS ledger_from
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (SELECT * FROM bad ORDER BY ledger_id NULLS LAST, audit_id LIMIT ${LISTED}) b ON true
    ORDER BY b.ledger_id NULLS LAST, b.audit_id`,
  );
  const first = rows[0];
  const mismatches = rows.filter((row) => row.action !== null).map(describeMismatch);
  return {
    ok: mismatches.length === 0,
    ledgerRows: Number(first?.ledger_rows ?? 0),
    auditRows: Number(first?.audit_rows ?? 0),
    ledgerFrom: Number(first?.ledger_from ?? 0),
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
  const scope = report.ledgerFrom > 0 ? ` (entries up to ${report.ledgerFrom} predate the audit trail)` : '';
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
