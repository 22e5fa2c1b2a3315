import { z } from 'zod';
import { hasTooManyDecimals, MAX_AMOUNT_CENTS, parseAmountToCents } from '../money.ts';
import { MESSAGES } from '../messages.ts';
import { amountSchema } from './balance.ts';
import { idSchema, moneyAmountSchema, pageNumberSchema, pageSizeSchema } from './common.ts';
import { exportFields } from './exports.ts';

/** The error codes a shift call answers besides the common ones. */
export const SHIFT_ERROR_CODES = {
  alreadyOpen: 'SHIFT_OPEN',
  alreadyClosed: 'SHIFT_CLOSED',
  gameInProgress: 'GAME_IN_PROGRESS',
  noOpenShift: 'NO_OPEN_SHIFT',
} as const;

/**
 * Cash moved in or out of the drawer other than by a game or a prize (docs/product/shifts.md#cash-movements,
 * decision 091): a pickup (taken by someone, such as the agent), a drop (taken to the safe), paid in
 * and paid out. Each changes the expected cash: a paid in adds, the other three take away.
 */
export const SHIFT_MOVEMENT_KINDS = ['pickup', 'drop', 'paid_in', 'paid_out'] as const;
export type ShiftMovementKind = (typeof SHIFT_MOVEMENT_KINDS)[number];

/** How the screens and the printed reports name each movement. */
export const SHIFT_MOVEMENT_LABELS: Record<ShiftMovementKind, string> = {
  pickup: 'Pickup',
  drop: 'Drop to safe',
  paid_in: 'Paid in',
  paid_out: 'Paid out',
};

/** The movements that take cash out of the drawer: they name who took it. */
export const isCashTaken = (kind: ShiftMovementKind): boolean => kind === 'pickup' || kind === 'drop';

/** The movement's effect on the expected cash, in cents (a paid in adds, the others take away). */
export const movementSign = (kind: ShiftMovementKind): 1 | -1 => (kind === 'paid_in' ? 1 : -1);

/**
 * POST /api/shifts/{id}/movements: an amount (> 0, as every money amount), the kind, a reason, and
 * for a pickup or a drop who took the cash.
 */
export const shiftMovementInputSchema = z
  .strictObject({
    kind: z.enum(SHIFT_MOVEMENT_KINDS, { error: MESSAGES.shiftMovementKindInvalid }),
    amount: amountSchema,
    reason: z
      .string({ error: MESSAGES.shiftMovementReasonRequired })
      .trim()
      .min(1, MESSAGES.shiftMovementReasonRequired)
      .max(200, MESSAGES.shiftMovementReasonMax),
    takenBy: z
      .string()
      .trim()
      .max(100, MESSAGES.shiftMovementTakenByMax)
      .optional()
      .transform((name) => (name === '' ? undefined : name)),
  })
  .superRefine((input, ctx) => {
    if (isCashTaken(input.kind) && input.takenBy === undefined)
      ctx.addIssue({ code: 'custom', path: ['takenBy'], message: MESSAGES.shiftMovementTakenByRequired });
    if (!isCashTaken(input.kind) && input.takenBy !== undefined)
      ctx.addIssue({ code: 'custom', path: ['takenBy'], message: MESSAGES.shiftMovementTakenByNotKept });
  });
export type ShiftMovementInput = z.infer<typeof shiftMovementInputSchema>;

/** A cash movement as the API answers it and the X and Z reports list it. */
export const shiftMovementSchema = z.object({
  id: z.number(),
  shiftId: z.number(),
  kind: z.enum(SHIFT_MOVEMENT_KINDS),
  amount: moneyAmountSchema,
  reason: z.string(),
  /** Who took the cash (a pickup or a drop); null for paid in and paid out. */
  takenBy: z.string().nullable(),
  at: z.string(),
  /** The name of who recorded it: the shop, or the upline whose take-back took it from the drawer. */
  recordedBy: z.string(),
  /** The take-back that took it from the drawer, when it was one (docs/product/money.md#take-back). */
  takeBackId: z.number().nullable(),
});
export type ShiftMovement = z.infer<typeof shiftMovementSchema>;

/**
 * Cash in the drawer as typed (JSON number or string, 0 or more, at most two decimals, at most
 * 1,000,000,000.00), parsed to integer cents. Like `amountSchema`, but zero is a valid count.
 */
export const cashSchema = z.unknown().transform((value, ctx) => {
  const cents = parseAmountToCents(value);
  if (cents !== null && cents > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountTooLarge });
    return z.NEVER;
  }
  if (cents === null && hasTooManyDecimals(value)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountDecimals });
    return z.NEVER;
  }
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.shiftCashInvalid });
    return z.NEVER;
  }
  return cents;
});

/** POST /api/shifts: open the shop's shift with the cash put in the drawer. */
export const openShiftInputSchema = z.strictObject({ openingFloat: cashSchema });
export type OpenShiftInput = z.infer<typeof openShiftInputSchema>;

/**
 * POST /api/shifts/{id}/close: the cash counted in the drawer, and why it differs from the
 * expected cash when it does (the server checks that, as only it knows the expected cash).
 */
export const closeShiftInputSchema = z.strictObject({
  countedCash: cashSchema,
  varianceReason: z
    .string()
    .trim()
    .max(200, MESSAGES.shiftVarianceReasonMax)
    .optional()
    .transform((reason) => (reason === '' ? undefined : reason)),
});
export type CloseShiftInput = z.infer<typeof closeShiftInputSchema>;

/** A shift. Amounts are decimal strings (cents exact); times ISO instants. */
export const shiftSchema = z.object({
  id: z.number(),
  userId: z.number(),
  shopName: z.string(),
  parentName: z.string().nullable(),
  openedAt: z.string(),
  /** The name of who opened it. */
  openedBy: z.string(),
  openingFloat: moneyAmountSchema,
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
  /** Now, for an open shift; as computed at the close for a closed one. */
  expectedCash: moneyAmountSchema,
  countedCash: moneyAmountSchema.nullable(),
  /** counted − expected: negative is a shortage. */
  variance: moneyAmountSchema.nullable(),
  varianceReason: z.string().nullable(),
  zNumber: z.number().nullable(),
  /** Open and opened before today's UTC midnight, or closed on a later UTC day than opened. */
  overMidnight: z.boolean(),
});
export type Shift = z.infer<typeof shiftSchema>;

export const GAME_STATUSES_IN_SHIFT = ['open', 'drawing', 'settled', 'voided', 'discarded'] as const;

/** The X report (an open shift, as of now) or the Z report (a closed shift, as stored at close). */
export const shiftReportSchema = z.object({
  kind: z.enum(['X', 'Z']),
  shift: shiftSchema,
  /** The games that froze in the shift, in freeze order. */
  games: z.array(
    z.object({
      gameId: z.number(),
      number: z.number(),
      code: z.string(),
      status: z.enum(GAME_STATUSES_IN_SHIFT),
      frozenAt: z.string().nullable(),
      entries: z.number(),
      pool: moneyAmountSchema,
      totalPrize: moneyAmountSchema,
      commission: moneyAmountSchema,
    }),
  ),
  /** Prizes this shop paid out during the shift. */
  prizesPaid: z.array(
    z.object({
      winnerId: z.number(),
      gameNumber: z.number(),
      position: z.number(),
      amount: moneyAmountSchema,
      paidAt: z.string(),
      claimerName: z.string(),
    }),
  ),
  /** Prizes of the shift's games still unpaid (not counted in the cash). */
  unpaidPrizes: z.array(
    z.object({
      winnerId: z.number(),
      gameNumber: z.number(),
      position: z.number(),
      amount: moneyAmountSchema,
      expiresAt: z.string(),
    }),
  ),
  /**
   * Take-backs from the shop's balance during the shift. Listed, not counted (they move balance, not
   * cash), unless taken from the drawer: then its pickup counts, once, among the movements.
   */
  takeBacks: z.array(
    z.object({
      id: z.number(),
      amount: moneyAmountSchema,
      at: z.string(),
      by: z.string(),
      reason: z.string().nullable(),
      /** Taken from the drawer: counted, as the pickup the movements list. Absent on Z reports from before. */
      fromDrawer: z.boolean().optional(),
    }),
  ),
  /**
   * Cash movements of the shift (pickups, drops, paid in, paid out), counted in the expected cash.
   * Absent on Z reports stored before movements existed.
   */
  movements: z.array(shiftMovementSchema).optional(),
  /**
   * The bets of the shift's voided games, handed back in cash at the counter (decision 094): one line
   * each, as voided. Not counted: the expected cash never took them in (only settled games' bets
   * count), so the cash in and the refund out cancel. Absent on Z reports stored before refund lines.
   */
  refunds: z
    .array(
      z.object({ gameId: z.number(), number: z.number(), code: z.string(), amount: moneyAmountSchema, at: z.string() }),
    )
    .optional(),
  totals: z.object({
    /** Settled games. */
    games: z.number(),
    betsCollected: moneyAmountSchema,
    prizesPaid: moneyAmountSchema,
    unpaidPrizes: moneyAmountSchema,
    takenBack: moneyAmountSchema,
    voidedGames: z.number(),
    /** The movements' sums (absent on Z reports stored before movements existed). */
    pickups: moneyAmountSchema.optional(),
    drops: moneyAmountSchema.optional(),
    paidIn: moneyAmountSchema.optional(),
    paidOut: moneyAmountSchema.optional(),
    /** The refund lines' sum (absent on Z reports stored before refund lines). */
    betsRefunded: moneyAmountSchema.optional(),
  }),
  expectedCash: moneyAmountSchema,
  countedCash: moneyAmountSchema.nullable(),
  variance: moneyAmountSchema.nullable(),
  generatedAt: z.string(),
  /**
   * A Z report: the latest signed checkpoint of the audit trail at the close (decision 045), its
   * SHA-256 and time, printed so the paper is a witness; null before the first checkpoint. Absent
   * on X reports and on Z reports stored before it was added.
   */
  auditCheckpoint: z.object({ digest: z.string(), madeAt: z.string() }).nullable().optional(),
});
export type ShiftReport = z.infer<typeof shiftReportSchema>;

/** GET /api/shifts/current (the shop): its open shift and the X report, or nulls. */
export const currentShiftSchema = z.object({
  shift: shiftSchema.nullable(),
  report: shiftReportSchema.nullable(),
  /**
   * The shop uses shifts: it has opened one, ever. With none open, the play screen then warns that
   * its games and payouts fall outside every Z report.
   */
  usesShifts: z.boolean(),
});
export type CurrentShift = z.infer<typeof currentShiftSchema>;

export const SHIFT_STATUSES = ['open', 'closed', 'all'] as const;

/** A day (YYYY-MM-DD, a UTC day) or an ISO date-time. `to` as a day includes that whole day. */
const instantOrDay = (name: string) =>
  z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: `${name} must be a day as YYYY-MM-DD or an ISO date-time`,
  });

const shiftFilterFields = {
  userId: idSchema.optional(),
  status: z.enum(SHIFT_STATUSES, { error: 'status must be open, closed or all' }).default('all'),
  /** Shifts opened at or after `from`, and at or before `to`. */
  from: instantOrDay('from').optional(),
  to: instantOrDay('to').optional(),
};

/** GET /api/shifts: the caller's scope, newest opened first. */
export const listShiftsQuerySchema = z.strictObject({
  ...shiftFilterFields,
  page: pageNumberSchema,
  pageSize: pageSizeSchema(200, 50),
});
export type ListShiftsQuery = z.infer<typeof listShiftsQuerySchema>;

/** GET /api/shifts/export: the same filters, every row, as a file. */
export const exportShiftsQuerySchema = z.strictObject({ ...shiftFilterFields, ...exportFields });
export type ExportShiftsQuery = z.infer<typeof exportShiftsQuerySchema>;

export const shiftListSchema = z.object({
  items: z.array(shiftSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type ShiftList = z.infer<typeof shiftListSchema>;

/** GET /api/shifts/summary (agent, super agent, admin): the dashboard card, over the caller's scope. */
export const shiftSummarySchema = z.object({
  open: z.number(),
  /** Open shifts opened before today's UTC midnight. */
  openOverMidnight: z.number(),
  /** Shifts closed today (UTC). */
  closedToday: z.number(),
  /** Closes today with a negative variance (cash short). */
  shortToday: z.number(),
  /** The sum of today's variances, a signed decimal string. */
  varianceToday: moneyAmountSchema,
});
export type ShiftSummary = z.infer<typeof shiftSummarySchema>;

export const shiftIdParamsSchema = z.strictObject({ id: idSchema });
