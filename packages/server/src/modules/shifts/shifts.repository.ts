import { and, desc, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared, selectPrepared } from '../../db/prepared.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { jsonbHash, whereClause } from '../../db/sql.ts';
import { shifts, users } from '../../db/schema.ts';
import { olderThan, type TimeKey } from '../../lib/export.ts';
import { insertAuditRow } from '../../lib/audit.ts';
import type { Claim } from '../../lib/idempotency.ts';
import type { ShiftMovementKind } from '@lot/domain/schemas/shifts';

const shop = alias(users, 'shop');
const parentUser = alias(users, 'parent_user');
const opener = alias(users, 'opener');
const closer = alias(users, 'closer');

/**
 * Expected cash (docs/decisions/039, 091): the float, plus the pools of the shift's settled games,
 * less the prizes paid during it, plus paid-ins, less pickups, drops and paid-outs. A closed shift
 * keeps the figure computed at its close.
 */
const expectedCash = sql<string>`(CASE WHEN ${shifts.closedAt} IS NULL THEN ${shifts.openingFloat}
  + COALESCE((SELECT sum(g.pool) FROM game_rounds r JOIN games g ON g.id = r.sale_id
      WHERE r.shift_id = ${shifts.id} AND r.status = 'settled'), 0)
  - COALESCE((SELECT sum(c.amount) FROM prize_claims c WHERE c.shift_id = ${shifts.id} AND c.status = 'paid'), 0)
  + COALESCE((SELECT sum(CASE m.kind WHEN 'paid_in' THEN m.amount ELSE -m.amount END)
      FROM shift_cash_movements m WHERE m.shift_id = ${shifts.id}), 0)
  ELSE ${shifts.expectedCash} END)::text`;

const shiftColumns = {
  id: shifts.id,
  userId: shifts.userId,
  shopName: sql<string>`COALESCE(NULLIF(${shop.shopName}, ''), ${shop.fullName})`,
  parentName: parentUser.fullName,
  openedAt: shifts.openedAt,
  openedBy: opener.fullName,
  openingFloat: shifts.openingFloat,
  closedAt: shifts.closedAt,
  closedBy: closer.fullName,
  expectedCash,
  countedCash: shifts.countedCash,
  variance: shifts.variance,
  varianceReason: shifts.varianceReason,
  zNumber: shifts.zNumber,
};

function selectShifts(db: Db | Tx) {
  return db
    .select(shiftColumns)
    .from(shifts)
    .innerJoin(shop, eq(shop.id, shifts.userId))
    .leftJoin(parentUser, eq(parentUser.id, shifts.parentId))
    .innerJoin(opener, eq(opener.id, shifts.openedBy))
    .leftJoin(closer, eq(closer.id, shifts.closedBy));
}

export type ShiftRow = Awaited<ReturnType<ReturnType<typeof selectShifts>['execute']>>[number];

/** One shift the condition lets through (the caller's reach), with its stored Z report. */
export async function findShift(
  db: Db | Tx,
  id: number,
  reach: SQL | undefined,
): Promise<(ShiftRow & { zReport: unknown }) | undefined> {
  const [row] = await db
    .select({ ...shiftColumns, zReport: shifts.zReport })
    .from(shifts)
    .innerJoin(shop, eq(shop.id, shifts.userId))
    .leftJoin(parentUser, eq(parentUser.id, shifts.parentId))
    .innerJoin(opener, eq(opener.id, shifts.openedBy))
    .leftJoin(closer, eq(closer.id, shifts.closedBy))
    .where(and(eq(shifts.id, id), reach));
  return row;
}

/** The shop's open shift, if any. */
export async function findOpenShift(db: Db | Tx, userId: number): Promise<ShiftRow | undefined> {
  const [row] = await selectShifts(db).where(and(eq(shifts.userId, userId), isNull(shifts.closedAt)));
  return row;
}

/** Whether the shop has ever opened a shift (it uses shifts). */
export async function hasShifts(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: shifts.id }).from(shifts).where(eq(shifts.userId, userId)).limit(1);
  return row !== undefined;
}

/** The open statement (`insertShift`), for its snapshot. */
export const insertShiftSql = (shopId: number, openingFloat: number): SQL =>
  sql`INSERT INTO shifts (user_id, parent_id, superagent_id, opened_by, opening_float)
      SELECT u.id, u.parent_id, CASE p.role WHEN 'superagent' THEN p.id WHEN 'agent' THEN p.parent_id END,
        u.id, ${openingFloat}::bigint
      FROM users u LEFT JOIN users p ON p.id = u.parent_id
      WHERE u.id = ${shopId}::int
      RETURNING id`;

/**
 * Opens the shop's shift, its parent and super agent copied as they stand (a shop under an agent
 * has the agent's super agent). The partial unique index refuses a second open one (23505).
 */
export async function insertShift(tx: Tx, shopId: number, openingFloat: number): Promise<number> {
  const [row] = await queryRows<{ id: number }>(tx, insertShiftSql(shopId, openingFloat));
  if (!row) throw new Error('shift insert returned no row');
  return Number(row.id);
}

/**
 * Locks the shift for its close and answers whether it is still open and the transaction's time
 * (the close's). A freeze or payout attaching to it holds FOR SHARE: this waits for them, and
 * the reads after it (each its own snapshot) see what they attached.
 */
export async function lockShift(tx: Tx, id: number): Promise<{ open: boolean; now: Date } | undefined> {
  const [row] = await queryRows<{ open: boolean; now: Date | string }>(
    tx,
    sql`SELECT closed_at IS NULL AS open, now() AS now FROM shifts WHERE id = ${id}::int FOR UPDATE`,
  );
  return row && { open: row.open, now: new Date(row.now) };
}

/** Games of the shop still open or being drawn. */
export async function countGamesInProgress(tx: Tx, userId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM game_rounds WHERE user_id = ${userId}::int AND status IN ('open', 'drawing')`,
  );
  return Number(row?.n ?? 0);
}

type Instant = Date | string;

export type ShiftGameRow = {
  id: number;
  number: number;
  code: string;
  status: 'open' | 'drawing' | 'settled' | 'voided' | 'discarded';
  frozen_at: Instant | null;
  /** When it settled or was voided (a voided game's refund: decision 094); null while in progress. */
  ended_at: Instant | null;
  entries: number;
  pool: string;
  total_prize: string;
  commission: string;
};
export type PrizePaidRow = {
  winner_id: number;
  game_number: number;
  position: number;
  amount: string;
  paid_at: Instant;
  claimer_name: string;
};
export type UnpaidPrizeRow = {
  winner_id: number;
  game_number: number;
  position: number;
  amount: string;
  expires_at: Instant;
};
export type TakeBackRow = {
  id: number;
  amount: string;
  at: Instant;
  by: string;
  reason: string | null;
  from_drawer: boolean;
};
export type MovementRow = {
  id: number;
  shift_id: number;
  kind: ShiftMovementKind;
  amount: string;
  reason: string;
  taken_by: string | null;
  at: Instant;
  recorded_by: string;
  transaction_id: number | null;
};

/** A movement's columns as its row answers them, `m` the movement and `u` who recorded it. */
const MOVEMENT_COLUMNS = sql`m.id, m.shift_id, m.kind, m.amount::text AS amount, m.reason, m.taken_by,
  m.created_at AS at, u.full_name AS recorded_by, m.transaction_id`;

/** The report's five statements (`reportRows`), for their snapshot. */
export function shiftReportSql(shift: { id: number; userId: number; openedAt: Date }, until: Date) {
  return {
    games: sql`SELECT r.id, r.number, r.code, r.status, r.frozen_at, r.ended_at, jsonb_array_length(r.entries) AS entries,
          COALESCE(g.pool, t.amount, 0)::text AS pool, COALESCE(g.total_prize, 0)::text AS total_prize,
          COALESCE(g.commission, 0)::text AS commission
        FROM game_rounds r LEFT JOIN games g ON g.id = r.sale_id LEFT JOIN transactions t ON t.id = r.transaction_id
        WHERE r.shift_id = ${shift.id}::int
        ORDER BY r.frozen_at, r.id`,
    paid: sql`SELECT c.winner_id, r.number AS game_number, w.position, c.amount::text AS amount, c.paid_at, c.claimer_name
        FROM prize_claims c JOIN game_rounds r ON r.id = c.game_id JOIN game_winners w ON w.id = c.winner_id
        WHERE c.shift_id = ${shift.id}::int AND c.status = 'paid'
        ORDER BY c.paid_at, c.winner_id`,
    unpaid: sql`SELECT c.winner_id, r.number AS game_number, w.position, c.amount::text AS amount, c.expires_at
        FROM game_rounds r JOIN prize_claims c ON c.game_id = r.id JOIN game_winners w ON w.id = c.winner_id
        WHERE r.shift_id = ${shift.id}::int AND c.status = 'unpaid' AND c.expires_at > now()
        ORDER BY r.number, w.position`,
    takeBacks: sql`SELECT t.id, t.amount::text AS amount, t.created_at AS at, a.full_name AS by, t.description AS reason,
          EXISTS (SELECT 1 FROM shift_cash_movements m WHERE m.transaction_id = t.id) AS from_drawer
        FROM transactions t JOIN users a ON a.id = t.actor_id
        WHERE t.type = 'takeback' AND t.user_id = ${shift.userId}::int
          AND t.created_at >= ${shift.openedAt.toISOString()}::timestamptz
          AND t.created_at <= ${until.toISOString()}::timestamptz
        ORDER BY t.created_at, t.id`,
    movements: sql`SELECT ${MOVEMENT_COLUMNS}
        FROM shift_cash_movements m JOIN users u ON u.id = m.recorded_by
        WHERE m.shift_id = ${shift.id}::int
        ORDER BY m.created_at, m.id`,
  };
}

/**
 * What a shift's report lists: the games that froze in it (the pool of a voided one is what its
 * freeze held), the prizes paid during it, its games' prizes still payable, the take-backs from the
 * shop's balance between its open and `until` (whether each took its cash from the drawer), and its
 * cash movements.
 */
export async function reportRows(
  db: Db | Tx,
  shift: { id: number; userId: number; openedAt: Date },
  until: Date,
): Promise<{
  games: ShiftGameRow[];
  paid: PrizePaidRow[];
  unpaid: UnpaidPrizeRow[];
  takeBacks: TakeBackRow[];
  movements: MovementRow[];
}> {
  const statements = shiftReportSql(shift, until);
  // One after another: inside the closing transaction they share its one connection.
  const games = await queryRows<ShiftGameRow>(db, statements.games);
  const paid = await queryRows<PrizePaidRow>(db, statements.paid);
  const unpaid = await queryRows<UnpaidPrizeRow>(db, statements.unpaid);
  const takeBacks = await queryRows<TakeBackRow>(db, statements.takeBacks);
  const movements = await queryRows<MovementRow>(db, statements.movements);
  return { games, paid, unpaid, takeBacks, movements };
}

export type MovementInsert = {
  shiftId: number;
  kind: ShiftMovementKind;
  amount: number;
  reason: string;
  takenBy: string | null;
  recordedBy: number;
  address: string | null;
  claim: Claim | undefined;
};

/**
 * The movement statement (`insertMovement`), for its snapshot. ONE statement (decisions 024, 091):
 * the shift held FOR SHARE while it is still open (a close waits for it, as for a payout), the
 * Idempotency-Key claimed with the movement's id, the movement and its audit row written. A closed
 * shift, or a key already claimed, writes nothing.
 */
export function insertMovementSql(input: MovementInsert): SQL {
  const { claim } = input;
  return sql`WITH shift AS MATERIALIZED (
      SELECT id, user_id, nextval(pg_get_serial_sequence('shift_cash_movements', 'id'))::int AS movement_id
      FROM shifts WHERE id = ${input.shiftId}::int AND closed_at IS NULL FOR SHARE
    ),
    go AS (${
      claim
        ? sql`INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
          SELECT ${claim.userId}::int, ${claim.key}::text, ${claim.requestHash}::text, 201,
            jsonb_build_object('movementId', movement_id)
          FROM shift
          ON CONFLICT (user_id, key) DO NOTHING
          RETURNING 1`
        : sql`SELECT 1 FROM shift`
    }),
    moved AS (
      INSERT INTO shift_cash_movements (id, shift_id, kind, amount, reason, taken_by, recorded_by)
      OVERRIDING SYSTEM VALUE
      SELECT movement_id, id, ${input.kind}::text, ${input.amount}::bigint, ${input.reason}::text,
        ${input.takenBy}::text, ${input.recordedBy}::int
      FROM shift WHERE EXISTS (SELECT 1 FROM go)
      RETURNING *
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details', 'at')}
      SELECT m.recorded_by, ${input.address}::text, 'shift.cash_movement', 'shift', m.shift_id, s.user_id,
        jsonb_build_object('movementId', m.id, 'kind', m.kind, 'amount', (m.amount::numeric / 100)::numeric(20, 2)::text,
          'reason', m.reason, 'takenBy', m.taken_by),
        m.created_at
      FROM moved m JOIN shift s ON s.id = m.shift_id
    )
    SELECT m.id FROM moved m`;
}

/**
 * Records a cash movement on an open shift: its id, or nothing when the shift is closed or the
 * Idempotency-Key was already claimed (the caller tells which).
 */
export async function insertMovement(db: Db, input: MovementInsert): Promise<number | undefined> {
  const [row] = await queryRows<{ id: number }>(db, insertMovementSql(input));
  return row && Number(row.id);
}

/** One movement as the reports list it. */
export async function findMovement(db: Db, id: number): Promise<MovementRow | undefined> {
  const [row] = await queryRows<MovementRow>(
    db,
    sql`SELECT ${MOVEMENT_COLUMNS} FROM shift_cash_movements m JOIN users u ON u.id = m.recorded_by
      WHERE m.id = ${id}::int`,
  );
  return row;
}

/** The Z counter's statement (`nextZNumber`), for its snapshot. */
export const nextZNumberSql = (userId: number): SQL =>
  sql`INSERT INTO shop_counters AS c (user_id, z_reports) VALUES (${userId}::int, 1)
      ON CONFLICT (user_id) DO UPDATE SET z_reports = c.z_reports + 1
      RETURNING c.z_reports AS n`;

/**
 * The shop's next Z number: its counter moved on by one in the closing transaction (the row lock
 * orders concurrent closes; a rolled-back close gives the number back), so numbers run 1, 2, 3…
 * without a gap or a repeat (decision 039).
 */
export async function nextZNumber(tx: Tx, userId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(tx, nextZNumberSql(userId));
  if (!row) throw new Error('z counter returned no row');
  return Number(row.n);
}

/**
 * Closes the shift (still open: it is locked) with its figures and its Z report, and answers the
 * SHA-256 of the Z report as stored, which its `shift.closed` audit row keeps (decision 087).
 */
export async function closeShiftRow(
  tx: Tx,
  id: number,
  close: {
    closedBy: number;
    closedAt: Date;
    expectedCash: number;
    countedCash: number;
    varianceReason: string | null;
    zNumber: number;
    zReport: unknown;
  },
): Promise<{ zReportHash: string }> {
  const done = await tx
    .update(shifts)
    .set({
      closedAt: close.closedAt,
      closedBy: close.closedBy,
      expectedCash: close.expectedCash,
      countedCash: close.countedCash,
      variance: close.countedCash - close.expectedCash,
      varianceReason: close.varianceReason,
      zNumber: close.zNumber,
      zReport: close.zReport,
    })
    .where(and(eq(shifts.id, id), isNull(shifts.closedAt)))
    .returning({ zReportHash: sql<string>`${jsonbHash(sql`${shifts.zReport}`)}` });
  const [closed] = done;
  if (!closed || done.length !== 1) throw new Error(`shift ${id} was not open at its close`);
  return closed;
}

export type ShiftFilter = {
  userId?: number;
  status: 'open' | 'closed' | 'all';
  /** Opened at or after. */
  from?: Date;
  /** Opened before. */
  to?: Date;
};

/** Which shifts a list (or its export) holds: the caller's reach, narrowed by the filters. */
export function shiftsWhere(reach: SQL | undefined, filter: ShiftFilter): SQL | undefined {
  return and(
    reach,
    filter.userId === undefined ? undefined : eq(shifts.userId, filter.userId),
    filter.status === 'open'
      ? isNull(shifts.closedAt)
      : filter.status === 'closed'
        ? isNotNull(shifts.closedAt)
        : undefined,
    filter.from ? gte(shifts.openedAt, filter.from) : undefined,
    filter.to ? lt(shifts.openedAt, filter.to) : undefined,
  );
}

/** A page of shifts, newest opened first, and the count of the whole set, side by side. */
export async function listShiftRows(
  db: Db,
  where: SQL | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: ShiftRow[]; total: number }> {
  const [[count], rows] = await Promise.all([
    selectPrepared(
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(shifts)
        .where(where),
    ),
    selectPrepared(
      selectShifts(db)
        .where(where)
        .orderBy(desc(shifts.openedAt), desc(shifts.id))
        .limit(page.limit)
        .offset(page.offset),
    ),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** An export's row as the driver answers it (the time as PostgreSQL's text, exact for the keyset). */
export type ShiftExportRow = {
  id: number;
  opened_at: string;
  shop_name: string;
  parent_name: string | null;
  opened_by: string;
  opening_float: string | number;
  closed_at: string | null;
  closed_by: string | null;
  z_number: number | null;
  expected_cash: string;
  counted_cash: string | number | null;
  variance: string | number | null;
  variance_reason: string | null;
};

/** One keyset page of a shifts export, newest opened first. */
export function shiftExportPage(
  db: Db,
  where: SQL | undefined,
  after: TimeKey | undefined,
  limit: number,
): Promise<ShiftExportRow[]> {
  const condition = and(where, olderThan(shifts.openedAt, shifts.id, after));
  return queryPrepared<ShiftExportRow>(
    db,
    sql`SELECT ${shifts.id}, ${shifts.openedAt}, COALESCE(NULLIF(shop.shop_name, ''), shop.full_name) AS shop_name,
        parent_user.full_name AS parent_name, opener.full_name AS opened_by, ${shifts.openingFloat},
        ${shifts.closedAt}, closer.full_name AS closed_by, ${shifts.zNumber}, ${expectedCash} AS expected_cash,
        ${shifts.countedCash}, ${shifts.variance}, ${shifts.varianceReason}
      FROM ${shifts} JOIN ${users} shop ON shop.id = ${shifts.userId}
        LEFT JOIN ${users} parent_user ON parent_user.id = ${shifts.parentId}
        JOIN ${users} opener ON opener.id = ${shifts.openedBy}
        LEFT JOIN ${users} closer ON closer.id = ${shifts.closedBy}${whereClause(condition)}
      ORDER BY ${shifts.openedAt} DESC, ${shifts.id} DESC LIMIT ${limit}`,
  );
}

/** The dashboard card's figures over the caller's reach; "today" is the UTC day of `now`. */
export async function shiftSummaryRow(
  db: Db,
  reach: SQL | undefined,
  todayStart: Date,
): Promise<{
  open: number;
  open_over_midnight: number;
  closed_today: number;
  short_today: number;
  variance_today: string;
}> {
  const start = todayStart.toISOString();
  const [open] = await queryRows<{ open: number; open_over_midnight: number }>(
    db,
    sql`SELECT count(*)::int AS open, (count(*) FILTER (WHERE ${shifts.openedAt} < ${start}::timestamptz))::int AS open_over_midnight
      FROM ${shifts}${whereClause(and(reach, isNull(shifts.closedAt)))}`,
  );
  const [closed] = await queryRows<{ closed_today: number; short_today: number; variance_today: string }>(
    db,
    sql`SELECT count(*)::int AS closed_today, (count(*) FILTER (WHERE ${shifts.variance} < 0))::int AS short_today,
        COALESCE(sum(${shifts.variance}), 0)::text AS variance_today
      FROM ${shifts}${whereClause(and(reach, gte(shifts.closedAt, todayStart)))}`,
  );
  return {
    open: Number(open?.open ?? 0),
    open_over_midnight: Number(open?.open_over_midnight ?? 0),
    closed_today: Number(closed?.closed_today ?? 0),
    short_today: Number(closed?.short_today ?? 0),
    variance_today: closed?.variance_today ?? '0',
  };
}

/** The database refused a second open shift of a shop (its partial unique index, decision 039). */
export const isShiftAlreadyOpen = (error: unknown): boolean => pgErrorCode(error) === UNIQUE_VIOLATION;
