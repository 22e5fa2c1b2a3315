import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { insertAuditRow } from '../../lib/audit.ts';
import type { Claim } from '../../lib/idempotency.ts';
import { claimSelect, type ClaimRow } from './claims.repository.ts';

/**
 * A prize's payout and the admin's approval of one without an entry code (decision 086): each one
 * statement that checks the slip's proof (the entry code, or the approved claimer ID), throttles
 * wrong ones and writes its audit rows.
 */

/** Wrong codes a shop may give for one prize within a minute before it is blocked (decision 086). */
export const WRONG_CODES_PER_MINUTE = 5;
/** The longest block, in minutes: blocks last 1, 2, 4 … minutes, doubling, up to this. */
export const LONGEST_BLOCK_MINUTES = 60;

/** A claimer ID number as it is compared: case, spaces and dashes ignored. */
const idKey = (value: SQL) => sql`upper(translate(${value}, ' -', ''))`;

/** What the pay statement made of the slip's proof: paid, or why not (null: not a payable claim of the caller). */
export type PayOutcome = 'proven' | 'throttled' | 'wrong_code' | 'wrong_id' | 'unapproved';

/** The pay statement (`payClaim`), for its snapshot. */
export function payClaimSql(input: PayClaimInput): SQL {
  const { claim } = input;
  const limit = sql`${WRONG_CODES_PER_MINUTE}::int`;
  // The attempt's place in the current minute, on the throttle row as it is now (`f`).
  const nth = sql`CASE WHEN f.window_at IS NULL OR f.window_at <= now() - interval '1 minute' THEN 1
    ELSE f.failures + 1 END`;
  const blocked = sql`f.blocked_until > now()`;
  const counts = sql`EXCLUDED.last_outcome IN ('wrong_code', 'wrong_id') AND NOT COALESCE(${blocked}, false)`;
  return sql`WITH candidate AS MATERIALIZED (
      SELECT c.winner_id, c.game_id, c.user_id, c.entry_code, c.approved_at, c.approved_by, c.approved_claimer_id
      FROM prize_claims c JOIN users shop ON shop.id = c.user_id
      WHERE c.winner_id = ${input.winnerId}::int AND c.status = 'unpaid' AND c.expires_at > now() AND ${input.mayPay}
      FOR UPDATE OF c
    ),
    proof AS MATERIALIZED (
      SELECT k.winner_id, k.game_id, k.user_id, k.approved_by,
        CASE
          WHEN k.entry_code IS NOT NULL THEN
            CASE WHEN k.entry_code = ${input.entryCode}::text THEN 'proven' ELSE 'wrong_code' END
          WHEN k.approved_at IS NULL THEN 'unapproved'
          WHEN ${idKey(sql`${input.claimerIdNumber}::text`)} = ${idKey(sql`k.approved_claimer_id`)} THEN 'proven'
          ELSE 'wrong_id'
        END AS outcome
      FROM candidate k
    ),
    gate AS (
      INSERT INTO claim_code_failures AS f (user_id, winner_id, failures, window_at, last_outcome)
      SELECT ${input.payerId}::int, winner_id, CASE WHEN outcome = 'proven' THEN 0 ELSE 1 END,
        CASE WHEN outcome = 'proven' THEN NULL ELSE now() END, outcome
      FROM proof WHERE outcome <> 'unapproved'
      ON CONFLICT (user_id, winner_id) DO UPDATE SET
        last_outcome = CASE WHEN ${blocked} THEN 'throttled' ELSE EXCLUDED.last_outcome END,
        failures = CASE WHEN NOT (${counts}) THEN f.failures WHEN ${nth} >= ${limit} THEN 0 ELSE ${nth} END,
        window_at = CASE WHEN NOT (${counts}) THEN f.window_at WHEN ${nth} >= ${limit} THEN NULL
          WHEN ${nth} = 1 THEN now() ELSE f.window_at END,
        strikes = f.strikes + CASE WHEN ${counts} AND ${nth} >= ${limit} THEN 1 ELSE 0 END,
        blocked_until = CASE WHEN ${counts} AND ${nth} >= ${limit}
          THEN now() + make_interval(mins => LEAST(${LONGEST_BLOCK_MINUTES}::int, power(2, LEAST(f.strikes, 6))::int))
          ELSE f.blocked_until END
      RETURNING f.winner_id, f.last_outcome AS outcome, f.blocked_until,
        CASE WHEN f.blocked_until > now() AND f.failures = 0 THEN ${limit} ELSE f.failures END AS failures
    ),
    go AS (${
      claim
        ? sql`INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
          SELECT ${claim.userId}::int, ${claim.key}::text, ${claim.requestHash}::text, 200,
            jsonb_build_object('winnerId', winner_id)
          FROM gate WHERE outcome = 'proven'
          ON CONFLICT (user_id, key) DO NOTHING
          RETURNING 1`
        : sql`SELECT 1 FROM gate WHERE outcome = 'proven'`
    }),
    shift AS (
      SELECT id FROM shifts WHERE user_id = ${input.payerId}::int AND closed_at IS NULL FOR SHARE
    ),
    paid AS (
      UPDATE prize_claims c SET status = 'paid', paid_at = now(), paid_by = ${input.payerId}::int,
        shift_id = (SELECT id FROM shift), claimer_name = ${input.claimerName}::text,
        claimer_id_number = ${input.claimerIdNumber}::text
      FROM candidate
      WHERE c.winner_id = candidate.winner_id AND c.status = 'unpaid' AND EXISTS (SELECT 1 FROM go)
      RETURNING c.*
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details', 'at')}
      SELECT ${input.payerId}::int, ${input.address}::text, 'claim.paid', 'claim', winner_id, user_id,
        jsonb_build_object('gameId', game_id, 'amount', (amount::numeric / 100)::numeric(20, 2)::text,
          'claimerName', ${input.claimerName}::text, 'shiftId', shift_id)
          || CASE WHEN approved_by IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('approvedBy', approved_by) END,
        paid_at
      FROM paid
    ),
    refused AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT ${input.payerId}::int, ${input.address}::text, 'claim.wrong_code', 'claim', p.winner_id, p.user_id,
        jsonb_build_object('gameId', p.game_id,
          'reason', CASE WHEN g.outcome = 'wrong_id' THEN 'wrong claimer ID'
            WHEN ${input.entryCode}::text IS NULL THEN 'no entry code' ELSE 'wrong entry code' END,
          'claimerName', ${input.claimerName}::text, 'failures', g.failures,
          'blockedUntil', CASE WHEN g.blocked_until > now() THEN g.blocked_until END)
      FROM gate g JOIN proof p ON p.winner_id = g.winner_id
      WHERE g.outcome IN ('wrong_code', 'wrong_id')
    )
    SELECT COALESCE(g.outcome, p.outcome) AS pay_outcome,
      CASE WHEN g.blocked_until > now() THEN ceil(extract(epoch FROM g.blocked_until - now()))::int END AS pay_wait,
      x.*
    FROM (SELECT 1) one
    LEFT JOIN proof p ON true
    LEFT JOIN gate g ON true
    LEFT JOIN (${claimSelect(sql`paid`)}) x ON true`;
}

/**
 * Pays a claim in ONE statement (decisions 038 and 086): lock the claim while it is still unpaid,
 * not expired and `mayPay` holds (a concurrent payout waits here, then finds it paid and pays
 * nothing); check, against the claim itself, the entry code (or, for an entry without one, the
 * claimer ID the admin approved); write the attempt on the shop's throttle row for the prize
 * (`INSERT … ON CONFLICT DO UPDATE`: a concurrent attempt's row is waited for and read as it is now),
 * which counts a wrong code unless the pair is blocked, and blocks it at the fifth in a minute; then,
 * for a proven attempt of a pair not blocked, claim the Idempotency-Key (decision 024), mark the claim
 * paid with the paying shop's open shift (held FOR SHARE, so the shift cannot close under the payout)
 * and write the `claim.paid` audit row, or for a counted wrong code the `claim.wrong_code` row. No
 * balance moves: the prize is paid in cash from the drawer.
 */
export type PayClaimInput = {
  winnerId: number;
  /** Who may pay, as a condition on the claim `c` and its game's shop `shop`. */
  mayPay: SQL;
  payerId: number;
  address: string | null;
  /** The code the payout gives (normalised, 16 hex characters), or null. */
  entryCode: string | null;
  claimerName: string;
  claimerIdNumber: string | null;
  claim: Claim | undefined;
};

/** The pay statement's answer: the claim paid, or what stopped it (no outcome: not a payable claim of the caller). */
export type PayResult = {
  outcome: PayOutcome | null;
  /** Seconds until the shop may give a code for this prize again, when it is blocked now. */
  wait: number | null;
  paid: ClaimRow | undefined;
};

export async function payClaim(db: Db, input: PayClaimInput): Promise<PayResult> {
  const [row] = await queryPrepared<Partial<ClaimRow> & { pay_outcome: PayOutcome | null; pay_wait: number | null }>(
    db,
    payClaimSql(input),
  );
  if (!row) throw new Error('the pay statement answered no row');
  const { pay_outcome: outcome, pay_wait: wait, ...claim } = row;
  return {
    outcome,
    wait: wait === null ? null : Number(wait),
    paid: claim.winner_id === null || claim.winner_id === undefined ? undefined : (claim as ClaimRow),
  };
}

/** The approve statement (`approveClaim`), for its snapshot. */
export function approveClaimSql(input: ApproveClaimInput): SQL {
  return sql`WITH approved AS (
      UPDATE prize_claims SET approved_at = now(), approved_by = ${input.actorId}::int,
        approved_claimer_id = ${input.claimerIdNumber}::text
      WHERE winner_id = ${input.winnerId}::int AND entry_code IS NULL AND status = 'unpaid' AND expires_at > now()
      RETURNING winner_id, game_id, user_id
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT ${input.actorId}::int, ${input.address}::text, 'claim.approved', 'claim', winner_id, user_id,
        jsonb_build_object('gameId', game_id, 'claimerIdEnding', ${input.claimerIdNumber.slice(-4)}::text,
          'reason', ${input.reason}::text)
      FROM approved
    )
    SELECT EXISTS (SELECT 1 FROM approved) AS approved`;
}

/**
 * The admin approves paying a prize whose entry has no entry code to the claimer with this ID
 * number (decision 086), with its audit row (the ID's last four characters and the reason), in one
 * statement; only an unpaid, unexpired claim without a code. A second approval replaces the first.
 */
export type ApproveClaimInput = {
  winnerId: number;
  claimerIdNumber: string;
  reason: string;
  actorId: number;
  address: string | null;
};

export async function approveClaim(db: Db, input: ApproveClaimInput): Promise<boolean> {
  const [row] = await queryRows<{ approved: boolean }>(db, approveClaimSql(input));
  return row?.approved === true;
}

/** The audit row of a refused second claim (who asked, and the first payout it was refused by). */
export async function auditRefusal(
  db: Db,
  input: { actorId: number; address: string | null; claim: ClaimRow },
): Promise<void> {
  const { claim } = input;
  await db.execute(
    sql`${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      VALUES (${input.actorId}::int, ${input.address}::text, 'claim.refused', 'claim', ${claim.winner_id}::int,
        ${claim.user_id}::int, jsonb_build_object('gameId', ${claim.game_id}::int, 'reason', 'already paid',
          'paidAt', ${claim.paid_at === null ? null : new Date(claim.paid_at).toISOString()}::text,
          'paidBy', ${claim.paid_by}::int))`,
  );
}
