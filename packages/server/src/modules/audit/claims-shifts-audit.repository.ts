import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { jsonbHash } from '../../db/sql.ts';
import { decimal } from './audit.repository.ts';

/**
 * The paid prize claims and the closed shifts each compared with the audit trail in one statement
 * (decision 087). Each statement is built by a `…Statement` function, so its text is snapshotted
 * (audit.repository.test.ts); the functions beside them run it and return plain rows.
 */

/** An instant as text in UTC to the microsecond, the same on both drivers and in any session time zone. */
const utcText = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/** One mismatch of the claims' or the shifts' comparison: what it is about and its fields (see claims-shifts-audit.ts). */
export type CounterAuditRow = {
  kind: 'claim' | 'shift' | 'shop' | null;
  id: number | string | null;
  fields: Record<string, unknown> | null;
  total: string;
  compared: string;
};

/**
 * The paid prize claims and their `claim.paid` audit rows compared both ways (see
 * `compareClaimsWithAudit`); the first `LISTED` mismatches, as (kind, winner id, fields).
 */
export const claimsAuditStatement = (LISTED: number) => sql`
    WITH paid AS (
      SELECT target_id AS winner_id, count(*) AS rows, string_agg(id::text, ', ' ORDER BY id) AS ids,
        min(id) AS audit_id, min(actor_id) AS audit_payer, min(target_user_id) AS audit_shop, min(at) AS audit_at,
        min(details->>'amount') AS audit_amount, min(details->>'shiftId') AS audit_shift,
        min(details->>'claimerName') AS audit_claimer
      FROM audit_log WHERE action = 'claim.paid' AND target_kind = 'claim'
      GROUP BY target_id
    ),
    pairs AS (
      SELECT COALESCE(c.winner_id, a.winner_id) AS winner_id, c.winner_id IS NOT NULL AS found, c.game_id,
        c.user_id AS shop, c.status, ${decimal('c.amount')} AS amount, c.shift_id::text AS shift,
        c.claimer_name AS claimer, c.paid_by AS payer, c.paid_at, a.rows, a.ids, a.audit_id, a.audit_payer,
        a.audit_shop, a.audit_at, a.audit_amount, a.audit_shift, a.audit_claimer
      FROM prize_claims c
      FULL JOIN paid a ON a.winner_id = c.winner_id
      WHERE c.status = 'paid' OR a.winner_id IS NOT NULL
    ),
    bad AS (
      SELECT * FROM pairs
      WHERE NOT found OR audit_id IS NULL OR rows > 1 OR status <> 'paid'
        OR audit_amount IS DISTINCT FROM amount OR audit_shift IS DISTINCT FROM shift
        OR audit_claimer IS DISTINCT FROM claimer OR audit_payer IS DISTINCT FROM payer
        OR audit_shop IS DISTINCT FROM shop OR audit_at IS DISTINCT FROM paid_at
    )
    SELECT b.kind, b.id, b.fields,
      (SELECT count(*) FROM bad)::text AS total,
      (SELECT count(*) FROM prize_claims WHERE status = 'paid')::text AS compared
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT 'claim' AS kind, b.winner_id AS id,
        jsonb_build_object('found', b.found, 'status', b.status, 'amount', b.amount, 'shift', b.shift,
          'claimer', b.claimer, 'payer', b.payer, 'shop', b.shop, 'shopName', u.username,
          'paidAt', ${utcText('b.paid_at')}, 'game', r.code, 'rows', b.rows, 'ids', b.ids,
          'auditId', b.audit_id::text, 'auditAmount', b.audit_amount, 'auditShift', b.audit_shift,
          'auditClaimer', b.audit_claimer, 'auditPayer', b.audit_payer, 'auditShop', b.audit_shop,
          'auditAt', ${utcText('b.audit_at')}) AS fields
      FROM (SELECT * FROM bad ORDER BY winner_id LIMIT ${LISTED}) b
      LEFT JOIN users u ON u.id = COALESCE(b.shop, b.audit_shop)
      LEFT JOIN game_rounds r ON r.id = b.game_id
    ) b ON true
    ORDER BY b.id`;

export function claimsAuditRows(db: Db | Tx, listed: number) {
  return queryRows<CounterAuditRow>(db, claimsAuditStatement(listed));
}

/**
 * The closed shifts and their `shift.closed` audit rows compared both ways, and each shop's Z
 * numbers checked for gaps (see `compareShiftsWithAudit`); the first `LISTED` mismatches.
 */
export const shiftsAuditStatement = (LISTED: number) => sql`
    WITH closed AS (
      SELECT target_id AS shift_id, count(*) AS rows, string_agg(id::text, ', ' ORDER BY id) AS ids,
        min(id) AS audit_id, min(actor_id) AS audit_closer, min(target_user_id) AS audit_shop,
        min(details->>'zNumber') AS audit_z, min(details->>'expectedCash') AS audit_expected,
        min(details->>'countedCash') AS audit_counted, min(details->>'variance') AS audit_variance,
        min(details->>'varianceReason') AS audit_reason, min(details->>'zReportHash') AS audit_hash
      FROM audit_log WHERE action = 'shift.closed' AND target_kind = 'shift'
      GROUP BY target_id
    ),
    pairs AS (
      SELECT COALESCE(s.id, a.shift_id) AS shift_id, s.id IS NOT NULL AS found,
        s.closed_at IS NOT NULL AS closed, s.user_id AS shop, s.closed_by AS closer, s.z_number::text AS z,
        ${decimal('s.expected_cash')} AS expected, ${decimal('s.counted_cash')} AS counted,
        ${decimal('s.variance')} AS variance, s.variance_reason AS reason, s.z_report->'shift'->>'zNumber' AS report_z,
        s.z_report->>'expectedCash' AS report_expected, s.z_report->>'countedCash' AS report_counted,
        s.z_report->>'variance' AS report_variance, s.z_report->'shift'->>'varianceReason' AS report_reason,
        -- Only a close that recorded the hash is held to it (decision 087).
        CASE WHEN a.audit_hash IS NOT NULL THEN ${jsonbHash(sql`s.z_report`)} END AS report_hash,
        a.rows, a.ids, a.audit_id, a.audit_closer, a.audit_shop, a.audit_z, a.audit_expected, a.audit_counted,
        a.audit_variance, a.audit_reason, a.audit_hash
      FROM shifts s
      FULL JOIN closed a ON a.shift_id = s.id
      WHERE s.closed_at IS NOT NULL OR a.shift_id IS NOT NULL
    ),
    bad_shifts AS (
      SELECT * FROM pairs
      WHERE NOT found OR NOT closed OR audit_id IS NULL OR rows > 1
        OR audit_z IS DISTINCT FROM z OR audit_expected IS DISTINCT FROM expected
        OR audit_counted IS DISTINCT FROM counted OR audit_variance IS DISTINCT FROM variance
        OR audit_reason IS DISTINCT FROM reason
        OR audit_z IS DISTINCT FROM report_z OR audit_expected IS DISTINCT FROM report_expected
        OR audit_counted IS DISTINCT FROM report_counted OR audit_variance IS DISTINCT FROM report_variance
        OR audit_reason IS DISTINCT FROM report_reason
        OR report_hash IS DISTINCT FROM audit_hash
        OR audit_closer IS DISTINCT FROM closer OR audit_shop IS DISTINCT FROM shop
    ),
    numbered AS (SELECT user_id, z_number FROM shifts WHERE z_number IS NOT NULL),
    -- A shop's Z numbers run 1 to the highest given: its counter's, or a closed shift's if higher.
    tops AS (
      SELECT user_id, max(top) AS top FROM (
        SELECT user_id, max(z_number) AS top FROM numbered GROUP BY user_id
        UNION ALL
        SELECT user_id, z_reports FROM shop_counters WHERE z_reports > 0
      ) t GROUP BY user_id
    ),
    gaps AS (
      SELECT t.user_id, t.top, count(*) AS missing, (array_agg(n ORDER BY n))[1:10] AS numbers
      FROM tops t
      CROSS JOIN LATERAL generate_series(1, t.top) n
      WHERE NOT EXISTS (SELECT 1 FROM numbered z WHERE z.user_id = t.user_id AND z.z_number = n)
      GROUP BY t.user_id, t.top
    ),
    bad AS (
      SELECT 'shift' AS kind, shift_id AS id FROM bad_shifts
      UNION ALL
      SELECT 'shop', user_id FROM gaps
    )
    SELECT b.kind, b.id, b.fields,
      (SELECT count(*) FROM bad)::text AS total,
      (SELECT count(*) FROM shifts WHERE closed_at IS NOT NULL)::text AS compared
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT l.kind, l.id,
        CASE l.kind
          WHEN 'shift' THEN (SELECT jsonb_build_object('found', s.found, 'closed', s.closed, 'shop', s.shop,
              'shopName', u.username, 'closer', s.closer, 'z', s.z, 'expected', s.expected, 'counted', s.counted,
              'variance', s.variance, 'reason', s.reason, 'reportZ', s.report_z, 'reportExpected', s.report_expected,
              'reportCounted', s.report_counted, 'reportVariance', s.report_variance, 'reportReason', s.report_reason, 'reportHash', s.report_hash,
              'rows', s.rows, 'ids', s.ids, 'auditId', s.audit_id::text, 'auditCloser', s.audit_closer,
              'auditShop', s.audit_shop, 'auditZ', s.audit_z, 'auditExpected', s.audit_expected,
              'auditCounted', s.audit_counted, 'auditVariance', s.audit_variance, 'auditReason', s.audit_reason, 'auditHash', s.audit_hash)
            FROM bad_shifts s LEFT JOIN users u ON u.id = COALESCE(s.shop, s.audit_shop) WHERE s.shift_id = l.id)
          ELSE (SELECT jsonb_build_object('top', g.top, 'missing', g.missing, 'numbers', to_jsonb(g.numbers),
              'shopName', u.username)
            FROM gaps g LEFT JOIN users u ON u.id = g.user_id WHERE g.user_id = l.id)
        END AS fields
      FROM (SELECT * FROM bad ORDER BY kind, id LIMIT ${LISTED}) l
    ) b ON true
    ORDER BY b.kind, b.id`;

export function shiftsAuditRows(db: Db | Tx, listed: number) {
  return queryRows<CounterAuditRow>(db, shiftsAuditStatement(listed));
}
