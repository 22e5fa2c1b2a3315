import { sql, type SQL } from 'drizzle-orm';
import type { ClaimStatus, ClaimStatusInfo } from '@lot/domain/schemas/games';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import type { Claim } from '../../lib/idempotency.ts';
import { insertAuditRow } from '../../lib/audit.ts';

/**
 * The prize claims' queries (decision 038, docs/product/money.md#prize-claims). Every write is one
 * statement that carries its audit row; the service decides who may call and shapes the rows.
 */

/** A claim as the lists, the lookup and the receipt read it: with its game, prize, shop and payer. */
export type ClaimRow = {
  winner_id: number;
  game_id: number;
  game_code: string;
  game_number: number | null;
  protocol: 'LOT-DRAW-1' | 'LOT-DRAW-2';
  settled_at: Date | string | null;
  shop_name: string;
  user_id: number;
  parent_id: number | null;
  superagent_id: number | null;
  /** The game's shop's parent now (who may pay for a sibling shop is judged by it). */
  shop_parent_id: number | null;
  position: number;
  prize_name: string;
  number: number;
  amount: number | string;
  status: ClaimStatus;
  created_at: Date | string;
  expires_at: Date | string;
  paid_at: Date | string | null;
  paid_by: number | null;
  paid_at_shop: string | null;
  claimer_name: string | null;
  claimer_id_number: string | null;
  receipt_prints: number;
  winner_name: string;
  winner_phone: string;
  /** created_at exactly, as text: an export's keyset continues after it. */
  created_key: string;
  /** The business setting read with the row: any shop of the same parent may pay. */
  any_shop: boolean;
  /** Whether the winner's entry has an entry code (decision 086). */
  has_entry_code: boolean;
  /** When the admin approved paying a prize without an entry code. */
  approved_at: Date | string | null;
};

const shopName = (alias: string) => sql.raw(`COALESCE(NULLIF(btrim(${alias}.shop_name), ''), ${alias}.full_name)`);

/**
 * A claim's status as every read shows it: an unpaid claim past its time is expired whether or not
 * the sweep (expireDue) has marked it yet, so reads never write.
 */
const CLAIM_STATUS = sql.raw(
  `CASE WHEN c.status = 'unpaid' AND c.expires_at <= now() THEN 'expired' ELSE c.status END`,
);

/** The claim rows of `from` (prize_claims, or the rows a statement just wrote) as `c`, with what they show. */
const claimSelect = (from: SQL) => sql`
  SELECT c.winner_id, c.game_id, r.code AS game_code, r.number AS game_number, r.protocol,
    r.ended_at AS settled_at, ${shopName('shop')} AS shop_name, c.user_id, c.parent_id, c.superagent_id,
    shop.parent_id AS shop_parent_id, w.position,
    COALESCE((SELECT p->>'name' FROM jsonb_array_elements(r.prizes) p
      WHERE (p->>'position')::int = w.position LIMIT 1), 'Prize ' || w.position) AS prize_name,
    w.number, c.amount, ${CLAIM_STATUS} AS status, c.created_at, c.expires_at, c.paid_at, c.paid_by,
    CASE WHEN c.paid_by IS NULL THEN NULL ELSE ${shopName('payer')} END AS paid_at_shop,
    c.claimer_name, c.claimer_id_number, c.receipt_prints, w.name AS winner_name, w.phone_number AS winner_phone,
    c.created_at::text AS created_key,
    COALESCE((SELECT claims_any_shop_of_agent FROM business_settings WHERE id = 1), false) AS any_shop,
    c.entry_code IS NOT NULL AS has_entry_code, c.approved_at
  FROM ${from} c
  JOIN game_rounds r ON r.id = c.game_id
  JOIN game_winners w ON w.id = c.winner_id
  JOIN users shop ON shop.id = c.user_id
  LEFT JOIN users payer ON payer.id = c.paid_by`;

const CLAIM_SELECT = claimSelect(sql`prize_claims`);

/** The sweep's statement (`expireDue`), for its snapshot. */
export const EXPIRE_DUE: SQL = sql`WITH expired AS (
      UPDATE prize_claims SET status = 'expired'
      WHERE status = 'unpaid' AND expires_at <= now()
      RETURNING winner_id, game_id, user_id, amount, expires_at
    ),
    audited AS (
      ${insertAuditRow('targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT NULL, 'claim.expired', 'claim', winner_id, user_id,
        jsonb_build_object('gameId', game_id, 'amount', (amount::numeric / 100)::numeric(20, 2)::text,
          'expiresAt', expires_at)
      FROM expired
    )
    SELECT count(*)::int AS expired FROM expired`;

/**
 * Unpaid claims past their time become expired, each with an audit row without an actor (one
 * statement); the server runs it every minute (claims.sweep.ts), reads derive the status meanwhile
 * (CLAIM_STATUS). A concurrent sweep waits on the rows this one changes and then finds them no longer
 * unpaid, so a claim expires once. Answers how many expired.
 */
export async function expireDue(db: Db): Promise<number> {
  const rows = await queryPrepared<{ expired: number }>(db, EXPIRE_DUE);
  return Number(rows[0]?.expired ?? 0);
}

/** One claim by its winner id, when `visible` (a condition on c and shop) holds. */
export async function findClaim(db: Db, winnerId: number, visible: SQL): Promise<ClaimRow | undefined> {
  const [row] = await queryPrepared<ClaimRow>(
    db,
    sql`${CLAIM_SELECT} WHERE c.winner_id = ${winnerId}::int AND ${visible}`,
  );
  return row;
}

/** The claims of an entry code (in one game, or in any), where `visible` holds; by game, then position. */
export function claimsOfEntry(db: Db, entryCode: string, gameId: number | null, visible: SQL): Promise<ClaimRow[]> {
  return queryRows<ClaimRow>(
    db,
    sql`${CLAIM_SELECT} WHERE c.entry_code = ${entryCode} AND ${visible}
      ${gameId === null ? sql`` : sql`AND c.game_id = ${gameId}`}
      ORDER BY c.created_at DESC, w.position`,
  );
}

/**
 * A game holding an entry with this code, as the lookup needs it (a scanned slip names the game
 * too), with what a lookup that finds no prize shows of it.
 */
export type EntryGame = Pick<ClaimRow, 'game_code' | 'game_number' | 'protocol' | 'settled_at' | 'shop_name'> & {
  id: number;
  user_id: number;
  shop_parent_id: number | null;
  status: string;
};

/**
 * The game whose entries hold this entry code: by its public code, or among the games of the shops
 * `shops` names (a condition on `users u`), newest first. A code with no entry of a game is none.
 */
export async function gameOfEntry(
  db: Db,
  entryCode: string,
  gameCode: string | null,
  shops: SQL,
): Promise<EntryGame | undefined> {
  const holds = sql`r.entries @> ${JSON.stringify([{ nonce: entryCode }])}::jsonb`;
  const [row] = await queryRows<EntryGame>(
    db,
    sql`SELECT r.id, r.user_id, u.parent_id AS shop_parent_id, r.status, r.code AS game_code,
        r.number AS game_number, r.protocol, r.ended_at AS settled_at, ${shopName('u')} AS shop_name
      FROM game_rounds r JOIN users u ON u.id = r.user_id
      WHERE ${holds} AND ${shops} ${gameCode === null ? sql`` : sql`AND r.code = ${gameCode}`}
      ORDER BY r.id DESC LIMIT 1`,
  );
  return row;
}

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

/** The extend statement (`extendClaim`), for its snapshot. */
export function extendClaimSql(input: ExtendClaimInput): SQL {
  return sql`WITH before AS (
      SELECT winner_id, status, expires_at FROM prize_claims WHERE winner_id = ${input.winnerId}::int
    ),
    extended AS (
      UPDATE prize_claims SET status = 'unpaid',
        expires_at = GREATEST(now(), expires_at) + make_interval(days => ${input.days}::int)
      WHERE winner_id = ${input.winnerId}::int AND status IN ('unpaid', 'expired')
      RETURNING winner_id, game_id, user_id, expires_at
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT ${input.actorId}::int, ${input.address}::text, 'claim.extended', 'claim', e.winner_id, e.user_id,
        jsonb_build_object('gameId', e.game_id, 'days', ${input.days}::int, 'reason', ${input.reason}::text,
          'status', b.status, 'expiresAt', b.expires_at, 'newExpiresAt', e.expires_at)
      FROM extended e JOIN before b ON b.winner_id = e.winner_id
    )
    SELECT EXISTS (SELECT 1 FROM before) AS found, EXISTS (SELECT 1 FROM extended) AS extended`;
}

/**
 * More days for an unpaid or expired claim (admin): expires_at = max(now, expires_at) + days, status
 * unpaid, with its audit row, in one statement. Answers whether the claim was found and whether it
 * was paid (then nothing changes).
 */
export type ExtendClaimInput = {
  winnerId: number;
  days: number;
  reason: string;
  actorId: number;
  address: string | null;
};

export async function extendClaim(db: Db, input: ExtendClaimInput): Promise<{ found: boolean; extended: boolean }> {
  const [row] = await queryRows<{ found: boolean; extended: boolean }>(db, extendClaimSql(input));
  return { found: row?.found === true, extended: row?.extended === true };
}

/** Counts one print of a paid claim's receipt (one statement); undefined when it is not paid. */
export async function countReceiptPrint(db: Db, winnerId: number): Promise<number | undefined> {
  const [row] = await queryRows<{ receipt_prints: number }>(
    db,
    sql`UPDATE prize_claims SET receipt_prints = receipt_prints + 1
      WHERE winner_id = ${winnerId}::int AND status = 'paid' RETURNING receipt_prints`,
  );
  return row ? Number(row.receipt_prints) : undefined;
}

export type ListFilter = {
  scope: SQL;
  status: ClaimStatus | 'all';
  userId?: number;
  saleId?: number;
  from?: string;
  to?: string;
};

function listWhere(filter: ListFilter): SQL {
  const parts: SQL[] = [filter.scope];
  // The status as CLAIM_STATUS derives it, written so the (…, status, created_at) indexes still serve it.
  if (filter.status === 'paid') parts.push(sql`c.status = 'paid'`);
  if (filter.status === 'unpaid') parts.push(sql`c.status = 'unpaid' AND c.expires_at > now()`);
  if (filter.status === 'expired')
    parts.push(sql`c.status IN ('unpaid', 'expired') AND (c.status = 'expired' OR c.expires_at <= now())`);
  if (filter.status === 'before_claims' || filter.status === 'paid_before_claims')
    parts.push(sql`c.status = ${filter.status}::text`);
  if (filter.userId !== undefined) parts.push(sql`c.user_id = ${filter.userId}::int`);
  // The claim's winner row belongs to the sale (game_winners.game_id is the sale's id).
  if (filter.saleId !== undefined)
    parts.push(sql`c.winner_id IN (SELECT id FROM game_winners WHERE game_id = ${filter.saleId}::int)`);
  if (filter.from) parts.push(sql`c.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) parts.push(sql`c.created_at <= ${filter.to}::timestamptz`);
  return sql.join(parts, sql` AND `);
}

/** A page of the list, newest first, and the totals over every row the filters match. */
export async function listClaims(
  db: Db,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ClaimRow[]; count: number; amount: number }> {
  const where = listWhere(filter);
  const [rows, totals] = await Promise.all([
    queryRows<ClaimRow>(
      db,
      sql`${CLAIM_SELECT} WHERE ${where} ORDER BY c.created_at DESC, c.winner_id DESC
        LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    queryRows<{ count: number; amount: string | null }>(
      db,
      sql`SELECT count(*)::int AS count, sum(c.amount)::text AS amount FROM prize_claims c
        JOIN users shop ON shop.id = c.user_id WHERE ${where}`,
    ),
  ]);
  return { rows, count: Number(totals[0]?.count ?? 0), amount: Number(totals[0]?.amount ?? 0) };
}

/** The export's keyset page: rows older than `after` (created_at, winner_id), newest first. */
export function exportPage(
  db: Db,
  filter: ListFilter,
  after: { at: string; id: number } | undefined,
  limit: number,
): Promise<ClaimRow[]> {
  const older = after ? sql`AND (c.created_at, c.winner_id) < (${after.at}::timestamptz, ${after.id}::int)` : sql``;
  return queryRows<ClaimRow>(
    db,
    sql`${CLAIM_SELECT} WHERE ${listWhere(filter)} ${older} ORDER BY c.created_at DESC, c.winner_id DESC LIMIT ${limit}`,
  );
}

/** The claims of a game's prizes as the proof, the result slip and the display show them, by prize position. */
export async function claimStatusesOf(db: Db | Tx, gameId: number): Promise<Map<number, ClaimStatusInfo>> {
  const rows = await queryPrepared<{
    position: number;
    status: ClaimStatusInfo['status'];
    paid_at: Date | string | null;
    shop_name: string | null;
    expires_at: Date | string;
  }>(
    db,
    sql`SELECT w.position, ${CLAIM_STATUS} AS status, c.paid_at, CASE WHEN c.paid_by IS NULL THEN NULL ELSE ${shopName('payer')} END AS shop_name,
        c.expires_at
      FROM prize_claims c JOIN game_winners w ON w.id = c.winner_id LEFT JOIN users payer ON payer.id = c.paid_by
      WHERE c.game_id = ${gameId}::int`,
  );
  const iso = (value: Date | string) => new Date(value).toISOString();
  return new Map(
    rows.map((row) => [
      Number(row.position),
      {
        status: row.status,
        paidAt: row.paid_at === null ? null : iso(row.paid_at),
        shopName: row.shop_name,
        expiresAt: iso(row.expires_at),
      },
    ]),
  );
}

export type BusinessSettingsRow = { claim_period_days: number; claims_any_shop_of_agent: boolean };

export async function readSettings(db: Db): Promise<BusinessSettingsRow> {
  const [row] = await queryRows<BusinessSettingsRow>(
    db,
    sql`SELECT claim_period_days, claims_any_shop_of_agent FROM business_settings WHERE id = 1`,
  );
  return row ?? { claim_period_days: 90, claims_any_shop_of_agent: false };
}

/** Writes the settings and their audit row (with the values before) in one statement. */
export async function writeSettings(
  db: Db,
  input: { claimPeriodDays: number; claimsAnyShopOfAgent: boolean; actorId: number; address: string | null },
): Promise<BusinessSettingsRow> {
  const [row] = await queryRows<BusinessSettingsRow>(
    db,
    sql`WITH before AS (SELECT claim_period_days, claims_any_shop_of_agent FROM business_settings WHERE id = 1),
    saved AS (
      INSERT INTO business_settings (id, claim_period_days, claims_any_shop_of_agent, updated_at, updated_by)
      VALUES (1, ${input.claimPeriodDays}::int, ${input.claimsAnyShopOfAgent}::boolean, now(), ${input.actorId}::int)
      ON CONFLICT (id) DO UPDATE SET claim_period_days = EXCLUDED.claim_period_days,
        claims_any_shop_of_agent = EXCLUDED.claims_any_shop_of_agent, updated_at = now(),
        updated_by = EXCLUDED.updated_by
      RETURNING claim_period_days, claims_any_shop_of_agent
    ),
    audited AS (
      ${insertAuditRow('address', 'details')}
      SELECT ${input.actorId}::int, ${input.address}::text, 'settings.updated',
        jsonb_build_object('claimPeriodDays', s.claim_period_days, 'claimsAnyShopOfAgent', s.claims_any_shop_of_agent,
          'before', (SELECT to_jsonb(b) FROM before b))
      FROM saved s
    )
    SELECT claim_period_days, claims_any_shop_of_agent FROM saved`,
  );
  if (!row) throw new Error('business settings write returned no row');
  return row;
}

/** The bulk mark (`markBeforeClaimsPaid`), for its snapshot. */
export const markBeforeClaimsPaidSql = (input: { actorId: number; address: string | null }): SQL =>
  sql`WITH marked AS (
      UPDATE prize_claims SET status = 'paid_before_claims' WHERE status = 'before_claims'
      RETURNING amount
    ),
    totals AS (SELECT count(*)::int AS count, COALESCE(sum(amount), 0)::bigint AS amount FROM marked),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT ${input.actorId}::int, ${input.address}::text, 'claim.marked_paid_before', 'claim', NULL, NULL,
        jsonb_build_object('count', count, 'amount', ((amount)::numeric / 100)::numeric(20, 2)::text)
      FROM totals WHERE count > 0
    )
    SELECT count, amount::text FROM totals`;

/**
 * Every prize still `before_claims` marked `paid_before_claims`, with one audit row naming how many
 * and their sum, in one statement (decision 060). Answers how many and their sum in cents.
 */
export async function markBeforeClaimsPaid(
  db: Db,
  input: { actorId: number; address: string | null },
): Promise<{ count: number; amount: string }> {
  const [row] = await queryRows<{ count: number; amount: string }>(db, markBeforeClaimsPaidSql(input));
  return { count: Number(row?.count ?? 0), amount: row?.amount ?? '0' };
}
