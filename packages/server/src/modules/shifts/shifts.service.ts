import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import {
  movementSign,
  SHIFT_ERROR_CODES,
  type CloseShiftInput,
  type CurrentShift,
  type ExportShiftsQuery,
  type ListShiftsQuery,
  type OpenShiftInput,
  type Shift,
  type ShiftList,
  type ShiftMovement,
  type ShiftMovementInput,
  type ShiftReport,
  type ShiftSummary,
} from '@lot/domain/schemas/shifts';
import { byCaller, latestCheckpoint, recordAudit } from '../../lib/audit.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import type { Context } from '../../lib/context.ts';
import { claimOf, storedAnswer, type Idempotent } from '../../lib/idempotency.ts';
import { shiftsAccess } from './shifts.access.ts';
import {
  closeShiftRow,
  countGamesInProgress,
  findMovement,
  findOpenShift,
  findShift,
  hasShifts,
  insertMovement,
  insertShift,
  isShiftAlreadyOpen,
  listShiftRows,
  lockShift,
  nextZNumber,
  reportRows,
  shiftExportPage,
  shiftsWhere,
  shiftSummaryRow,
  type MovementRow,
  type ShiftExportRow,
  type ShiftFilter,
  type ShiftGameRow,
  type ShiftRow,
} from './shifts.repository.ts';

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => Math.floor(at.getTime() / DAY_MS);
const iso = (at: Date | string) => new Date(at).toISOString();
const cents = (value: string | number | bigint) => Number(value);

/**
 * Over midnight (docs/product/shifts.md): an open shift opened before today's UTC midnight, or a
 * closed one that closed on a later UTC day than it opened.
 */
function overMidnight(openedAt: Date, closedAt: Date | null, now: Date): boolean {
  return utcDay(closedAt ?? now) > utcDay(openedAt);
}

function toShift(row: ShiftRow, now: Date, expected?: number): Shift {
  return {
    id: row.id,
    userId: row.userId,
    shopName: row.shopName,
    parentName: row.parentName,
    openedAt: iso(row.openedAt),
    openedBy: row.openedBy,
    openingFloat: formatCents(row.openingFloat),
    closedAt: row.closedAt && iso(row.closedAt),
    closedBy: row.closedBy,
    expectedCash: formatCents(expected ?? cents(row.expectedCash)),
    countedCash: row.countedCash === null ? null : formatCents(row.countedCash),
    variance: row.variance === null ? null : formatCents(row.variance),
    varianceReason: row.varianceReason,
    zNumber: row.zNumber,
    overMidnight: overMidnight(row.openedAt, row.closedAt, now),
  };
}

function toMovement(row: MovementRow): ShiftMovement {
  return {
    id: row.id,
    shiftId: row.shift_id,
    kind: row.kind,
    amount: formatCents(cents(row.amount)),
    reason: row.reason,
    takenBy: row.taken_by,
    at: iso(row.at),
    recordedBy: row.recorded_by,
    takeBackId: row.transaction_id,
  };
}

/**
 * The refund lines (decision 094): each voided game's bets, handed back in cash at the counter when
 * it was voided (a void comes before the close: a shift with a game in progress does not close).
 */
function refundLines(games: ShiftGameRow[]): NonNullable<ShiftReport['refunds']> {
  return games
    .filter((g) => g.status === 'voided')
    .map((g) => ({
      gameId: g.id,
      number: g.number,
      code: g.code,
      amount: formatCents(cents(g.pool)),
      at: iso(g.ended_at ?? g.frozen_at ?? new Date(0)),
    }));
}

/** The sum of one kind of movement, in cents. */
const sumOf = (movements: MovementRow[], kind: MovementRow['kind']) =>
  movements.filter((m) => m.kind === kind).reduce((sum, m) => sum + cents(m.amount), 0);

/**
 * The report of an open shift as of now (X), or the one its close will store (Z, with the close's
 * figures filled in by the caller). Expected cash = float + pools of the settled games − prizes
 * paid + paid-ins − pickups, drops and paid-outs; voided games and take-backs are listed, not
 * counted (a take-back from the drawer counts as its pickup) (decisions 039, 091); a voided game's
 * bets, taken in and handed back, are a refund line each (decision 094).
 */
async function computeReport(
  db: Parameters<typeof reportRows>[0],
  row: ShiftRow,
  now: Date,
): Promise<{ report: ShiftReport; expected: number }> {
  const rows = await reportRows(db, { id: row.id, userId: row.userId, openedAt: row.openedAt }, now);
  const settled = rows.games.filter((g) => g.status === 'settled');
  const bets = settled.reduce((sum, g) => sum + cents(g.pool), 0);
  const paid = rows.paid.reduce((sum, p) => sum + cents(p.amount), 0);
  const unpaid = rows.unpaid.reduce((sum, p) => sum + cents(p.amount), 0);
  const takenBack = rows.takeBacks.reduce((sum, t) => sum + cents(t.amount), 0);
  const moved = rows.movements.reduce((sum, m) => sum + movementSign(m.kind) * cents(m.amount), 0);
  const refunds = refundLines(rows.games);
  const refunded = rows.games.filter((g) => g.status === 'voided').reduce((sum, g) => sum + cents(g.pool), 0);
  const expected = row.openingFloat + bets - paid + moved;
  const report: ShiftReport = {
    kind: 'X',
    shift: toShift(row, now, expected),
    games: rows.games.map((g) => ({
      gameId: g.id,
      number: g.number,
      code: g.code,
      status: g.status,
      frozenAt: g.frozen_at && iso(g.frozen_at),
      entries: Number(g.entries),
      pool: formatCents(cents(g.pool)),
      totalPrize: formatCents(cents(g.total_prize)),
      commission: formatCents(cents(g.commission)),
    })),
    prizesPaid: rows.paid.map((p) => ({
      winnerId: p.winner_id,
      gameNumber: p.game_number,
      position: p.position,
      amount: formatCents(cents(p.amount)),
      paidAt: iso(p.paid_at),
      claimerName: p.claimer_name,
    })),
    unpaidPrizes: rows.unpaid.map((p) => ({
      winnerId: p.winner_id,
      gameNumber: p.game_number,
      position: p.position,
      amount: formatCents(cents(p.amount)),
      expiresAt: iso(p.expires_at),
    })),
    takeBacks: rows.takeBacks.map((t) => ({
      id: t.id,
      amount: formatCents(cents(t.amount)),
      at: iso(t.at),
      by: t.by,
      reason: t.reason,
      fromDrawer: t.from_drawer,
    })),
    movements: rows.movements.map(toMovement),
    refunds,
    totals: {
      games: settled.length,
      betsCollected: formatCents(bets),
      prizesPaid: formatCents(paid),
      unpaidPrizes: formatCents(unpaid),
      takenBack: formatCents(takenBack),
      voidedGames: rows.games.filter((g) => g.status === 'voided').length,
      pickups: formatCents(sumOf(rows.movements, 'pickup')),
      drops: formatCents(sumOf(rows.movements, 'drop')),
      paidIn: formatCents(sumOf(rows.movements, 'paid_in')),
      paidOut: formatCents(sumOf(rows.movements, 'paid_out')),
      betsRefunded: formatCents(refunded),
    },
    expectedCash: formatCents(expected),
    countedCash: null,
    variance: null,
    generatedAt: now.toISOString(),
  };
  return { report, expected };
}

const notFound = () => new AppError('NOT_FOUND', SERVER_MESSAGES.shiftNotFound);

/** POST /api/shifts: the shop opens its shift with the float in the drawer. */
export async function openShift(ctx: Context, input: OpenShiftInput): Promise<Shift> {
  const { db, caller } = ctx;
  shiftsAccess.own(caller);
  try {
    await db.transaction(async (tx) => {
      const id = await insertShift(tx, caller.id, input.openingFloat);
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'shift.opened',
        targetKind: 'shift',
        targetId: id,
        targetUserId: caller.id,
        details: { openingFloat: formatCents(input.openingFloat) },
      });
    });
  } catch (error) {
    if (isShiftAlreadyOpen(error)) throw new AppError(SHIFT_ERROR_CODES.alreadyOpen, SERVER_MESSAGES.shiftAlreadyOpen);
    throw error;
  }
  const row = await findOpenShift(db, caller.id);
  if (!row) throw new Error('opened shift not found');
  return toShift(row, new Date(ctx.clock()));
}

/** GET /api/shifts/current: the shop's open shift and its X report, or nulls; whether it uses shifts at all. */
export async function currentShift(ctx: Context): Promise<CurrentShift> {
  const { db, caller } = ctx;
  shiftsAccess.own(caller);
  const row = await findOpenShift(db, caller.id);
  if (!row) return { shift: null, report: null, usesShifts: await hasShifts(db, caller.id) };
  const { report } = await computeReport(db, row, new Date(ctx.clock()));
  return { shift: report.shift, report, usesShifts: true };
}

/** GET /api/shifts/{id}/report: X for an open shift (as of now), the stored Z for a closed one. */
export async function shiftReport(ctx: Context, id: number): Promise<ShiftReport> {
  const { db, caller } = ctx;
  const row = await findShift(db, id, shiftsAccess.read(caller));
  if (!row) throw notFound();
  if (row.closedAt) return row.zReport as ShiftReport;
  return (await computeReport(db, row, new Date(ctx.clock()))).report;
}

/**
 * POST /api/shifts/{id}/close: the shop counts its drawer. In one transaction: the shift locked
 * (freezes and payouts attaching to it finish first), no game in progress, the report computed,
 * the difference explained, the next Z number taken, the shift closed with its Z report, the
 * audit row written with the stored Z report's hash (decision 087). A closed shift never changes
 * again (a trigger refuses it).
 */
export async function closeShift(ctx: Context, id: number, input: CloseShiftInput): Promise<ShiftReport> {
  const { db, caller } = ctx;
  const found = await findShift(db, id, shiftsAccess.read(caller));
  if (!found) throw notFound();
  shiftsAccess.close(caller, found);
  return db.transaction(async (tx) => {
    const lock = await lockShift(tx, id);
    if (!lock?.open) throw new AppError(SHIFT_ERROR_CODES.alreadyClosed, SERVER_MESSAGES.shiftAlreadyClosed);
    if ((await countGamesInProgress(tx, found.userId)) > 0)
      throw new AppError(SHIFT_ERROR_CODES.gameInProgress, SERVER_MESSAGES.shiftGameInProgress);
    const row = await findShift(tx, id, undefined);
    if (!row) throw notFound();
    const { report, expected } = await computeReport(tx, row, lock.now);
    const variance = input.countedCash - expected;
    if (variance !== 0 && !input.varianceReason)
      throw AppError.field('varianceReason', MESSAGES.shiftVarianceReasonRequired);
    const varianceReason = variance === 0 ? null : (input.varianceReason ?? null);
    const zNumber = await nextZNumber(tx, row.userId);
    const checkpoint = await latestCheckpoint(tx);
    const z: ShiftReport = {
      ...report,
      kind: 'Z',
      shift: {
        ...report.shift,
        closedAt: lock.now.toISOString(),
        closedBy: caller.fullName,
        countedCash: formatCents(input.countedCash),
        variance: formatCents(variance),
        varianceReason,
        zNumber,
        overMidnight: overMidnight(row.openedAt, lock.now, lock.now),
      },
      countedCash: formatCents(input.countedCash),
      variance: formatCents(variance),
      auditCheckpoint: checkpoint && { digest: checkpoint.digest, madeAt: checkpoint.madeAt },
    };
    const { zReportHash } = await closeShiftRow(tx, id, {
      closedBy: caller.id,
      closedAt: lock.now,
      expectedCash: expected,
      countedCash: input.countedCash,
      varianceReason,
      zNumber,
      zReport: z,
    });
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'shift.closed',
      targetKind: 'shift',
      targetId: id,
      targetUserId: row.userId,
      details: {
        zNumber,
        expectedCash: z.expectedCash,
        countedCash: z.countedCash,
        variance: z.variance,
        varianceReason,
        zReportHash,
      },
    });
    return z;
  });
}

/**
 * POST /api/shifts/{id}/movements: the shop records cash moved in or out of its open shift's drawer
 * (decision 091), in ONE statement with its audit row. Only the shop whose shift it is (its upline
 * reads it: 403; outside the reach: 404); a closed shift 409. With an Idempotency-Key a replay
 * answers the movement recorded the first time.
 */
export async function recordMovement(
  ctx: Context,
  id: number,
  input: ShiftMovementInput,
  key?: string,
): Promise<Idempotent<ShiftMovement>> {
  const { db, caller } = ctx;
  const found = await findShift(db, id, shiftsAccess.read(caller));
  if (!found) throw notFound();
  shiftsAccess.recordMovement(caller, found);
  const claim = key === undefined ? undefined : claimOf(caller.id, key, { op: 'shift.movement', id, ...input });
  const movementId = await insertMovement(db, {
    shiftId: id,
    kind: input.kind,
    amount: input.amount,
    reason: input.reason,
    takenBy: input.takenBy ?? null,
    recordedBy: caller.id,
    address: caller.address ?? null,
    claim,
  });
  const stored = movementId === undefined && claim ? await storedAnswer<{ movementId: number }>(db, claim) : undefined;
  const recorded = movementId ?? stored?.movementId;
  if (recorded === undefined) throw new AppError(SHIFT_ERROR_CODES.alreadyClosed, SERVER_MESSAGES.shiftAlreadyClosed);
  const row = await findMovement(db, recorded);
  if (!row) throw new Error(`movement ${recorded} not found after it was recorded`);
  return { result: toMovement(row), replayed: movementId === undefined };
}

/** A filter's days: `from` a day starts at its UTC midnight; `to` a day takes in that whole day. */
function filterOf(query: Omit<ListShiftsQuery, 'page' | 'pageSize'>): ShiftFilter {
  const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = (text: string) => new Date(isDay(text) ? `${text}T00:00:00Z` : text);
  return {
    userId: query.userId,
    status: query.status,
    from: query.from === undefined ? undefined : at(query.from),
    to:
      query.to === undefined
        ? undefined
        : isDay(query.to)
          ? new Date(at(query.to).getTime() + DAY_MS)
          : new Date(at(query.to).getTime() + 1),
  };
}

/** GET /api/shifts: the caller's reach, newest opened first. */
export async function listShifts(ctx: Context, query: ListShiftsQuery): Promise<ShiftList> {
  const { db, caller } = ctx;
  const { page, pageSize, ...filter } = query;
  const where = shiftsWhere(shiftsAccess.read(caller), filterOf(filter));
  const { rows, total } = await listShiftRows(db, where, { limit: pageSize, offset: (page - 1) * pageSize });
  const now = new Date(ctx.clock());
  return { items: rows.map((row) => toShift(row, now)), total, page, pageSize };
}

/** The columns of a shifts export: what the list shows. */
export const SHIFT_EXPORT_COLUMNS: ExportColumn<ShiftExportRow>[] = [
  { header: 'Opened', type: 'time', value: (row) => row.opened_at },
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Shop', type: 'text', value: (row) => row.shop_name },
  { header: 'Parent', type: 'text', value: (row) => row.parent_name },
  { header: 'Opened by', type: 'text', value: (row) => row.opened_by },
  { header: 'Float', type: 'money', value: (row) => row.opening_float },
  { header: 'Closed', type: 'time', value: (row) => row.closed_at },
  { header: 'Closed by', type: 'text', value: (row) => row.closed_by },
  { header: 'Z number', type: 'integer', value: (row) => row.z_number },
  { header: 'Expected cash', type: 'money', value: (row) => row.expected_cash },
  { header: 'Counted cash', type: 'money', value: (row) => row.counted_cash },
  { header: 'Variance', type: 'money', value: (row) => row.variance },
  { header: 'Reason', type: 'text', value: (row) => row.variance_reason },
];

/** Every shift of a list's filtered set, newest opened first, a keyset page at a time. */
export function shiftExportPages(
  ctx: Context,
  query: Omit<ExportShiftsQuery, 'format' | 'tz'>,
): AsyncIterable<ShiftExportRow[]> {
  const { db, caller } = ctx;
  const where = shiftsWhere(shiftsAccess.read(caller), filterOf(query));
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => shiftExportPage(db, where, after, limit),
    (row) => ({ at: String(row.opened_at), id: row.id }),
  );
}

/** GET /api/shifts/summary: the upline's dashboard card over its reach, today being the UTC day. */
export async function shiftSummary(ctx: Context): Promise<ShiftSummary> {
  const { db, caller } = ctx;
  shiftsAccess.summary(caller);
  const todayStart = new Date(utcDay(new Date(ctx.clock())) * DAY_MS);
  const row = await shiftSummaryRow(db, shiftsAccess.read(caller), todayStart);
  return {
    open: row.open,
    openOverMidnight: row.open_over_midnight,
    closedToday: row.closed_today,
    shortToday: row.short_today,
    varianceToday: formatCents(BigInt(row.variance_today)),
  };
}
