import { sql, type SQL } from 'drizzle-orm';
import type { ClaimStatus, ClaimStatusInfo } from '@lot/domain/schemas/games';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { insertAuditRow } from '../../lib/audit.ts';

/**
 * The prize claims' queries (decision 038, docs/product/money.md#prize-claims). Every write is one
 * statement that carries its audit row; the service decides who may call and shapes the rows. The
 * payout and its approval, which check the slip's proof, are in claim-payment.repository.ts.
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
export const claimSelect = (from: SQL) => sql`
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
