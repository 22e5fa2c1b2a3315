import { z } from 'zod';
import { STATEMENT_KINDS } from '../statement-kinds.ts';
import { idSchema, moneyAmountSchema, offsetSchema, pageSizeSchema } from './common.ts';

/** An IANA time zone name the runtime knows (Intl), e.g. `Europe/Madrid` or `UTC`. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** GET /api/reports/day-close (docs/product/money.md#day-close). */
export const dayCloseQuerySchema = z.strictObject({
  date: z.iso.date({ error: 'date must be a day as YYYY-MM-DD' }),
  userId: idSchema.optional(),
  tz: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: 'tz must be a time zone such as Europe/Madrid or UTC' })
    .optional(),
});
export type DayCloseQuery = z.infer<typeof dayCloseQuerySchema>;

/**
 * One shop's local day: its games and every movement of its balance, with opening + movements =
 * closing to the cent. Amounts are decimal strings (cents exact).
 */
export const dayCloseSchema = z.object({
  userId: z.number(),
  shopName: z.string(),
  date: z.string(),
  /** The time zone whose day this is. */
  timeZone: z.string(),
  /** The day's start (inclusive) and end (exclusive) as instants. */
  from: z.string(),
  to: z.string(),
  games: z.object({
    settled: z.number(),
    voided: z.number(),
    /** Numbers sold in the settled games. */
    numbersSold: z.number(),
    pool: moneyAmountSchema,
    prizes: moneyAmountSchema,
    commission: moneyAmountSchema,
  }),
  movements: z.object({
    topupsIn: moneyAmountSchema,
    transfersIn: moneyAmountSchema,
    transfersOut: moneyAmountSchema,
    /** Admin corrections (decreases). */
    corrections: moneyAmountSchema,
    /** Money taken back from the shop by its upline or the admin (take-backs). */
    takenBack: moneyAmountSchema,
    /** Pools held by the first draw of a game that day. */
    gamePoolsHeld: moneyAmountSchema,
    /** Pools returned by a void that day. */
    gamePoolsReturned: moneyAmountSchema,
    /** The sum of the above, with its signs. */
    net: moneyAmountSchema,
  }),
  openingBalance: moneyAmountSchema,
  closingBalance: moneyAmountSchema,
});
export type DayClose = z.infer<typeof dayCloseSchema>;

/** The formats every list exports to (docs/product/reports.md#exports). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportFormatSchema = z.enum(EXPORT_FORMATS, { error: 'format must be csv or xlsx' });

export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'tz must be a time zone such as Europe/Madrid or UTC' });

/** GET /api/statements/{userId} (docs/product/money.md#statements): whole local days, `from` to `to` inclusive. */
const periodFields = {
  from: z.iso.date({ error: 'from must be a day as YYYY-MM-DD' }),
  to: z.iso.date({ error: 'to must be a day as YYYY-MM-DD' }),
  tz: timeZoneSchema.optional(),
};
const inOrder = (query: { from: string; to: string }) => query.from <= query.to;
const toAfterFrom = { message: 'to must be on or after from', path: ['to'] };

export const statementQuerySchema = z
  .strictObject({
    ...periodFields,
    limit: pageSizeSchema(1000, 200),
    offset: offsetSchema,
  })
  .refine(inOrder, toAfterFrom);

/** GET /api/statements/{userId}/export: the whole period's movements as a file (docs/product/reports.md#exports). */
export const statementExportQuerySchema = z
  .strictObject({ ...periodFields, format: exportFormatSchema })
  .refine(inOrder, toAfterFrom);
export type StatementQuery = z.infer<typeof statementQuerySchema>;

export { STATEMENT_KINDS };

const statementParty = z.object({ id: z.number(), username: z.string(), fullName: z.string() });

export const statementMovementSchema = z.object({
  /** The ledger row it comes from. */
  transactionId: z.number(),
  at: z.string(),
  kind: z.enum(STATEMENT_KINDS),
  /** Signed: money in positive, money out negative. */
  amount: moneyAmountSchema,
  /** The balance after this movement. */
  balance: moneyAmountSchema,
  /** The reason of a correction or take-back, a settled game's summary, a void's reason. */
  description: z.string().nullable(),
  /** Who was on the other side: a transfer's other party, the admin of a top-up or correction, the one who took money back or the one it was taken from. */
  counterparty: statementParty.nullable(),
  /** A game's public code (its verify page). */
  gameCode: z.string().nullable(),
  /** That game's number at its shop ("Game #N"). */
  gameNumber: z.number().nullable(),
});
export type StatementMovement = z.infer<typeof statementMovementSchema>;

/**
 * One account's statement: opening balance, the period's movements in order with the running
 * balance, closing balance. opening + the sum of every movement = closing exactly. The movements
 * come a page at a time (`limit`, `offset`, `total`; also the X-Total-Count header); the balance
 * before the page's first movement is `pageOpeningBalance`.
 */
export const statementSchema = z.object({
  userId: z.number(),
  username: z.string(),
  fullName: z.string(),
  role: z.string(),
  timeZone: z.string(),
  /** The period's start (inclusive) and end (exclusive) as instants. */
  from: z.string(),
  to: z.string(),
  openingBalance: moneyAmountSchema,
  closingBalance: moneyAmountSchema,
  /** Money in and money out over the whole period (not only this page). */
  totalIn: moneyAmountSchema,
  totalOut: moneyAmountSchema,
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  pageOpeningBalance: moneyAmountSchema,
  movements: z.array(statementMovementSchema),
});
export type Statement = z.infer<typeof statementSchema>;

/** GET /api/reports/downline (docs/product/reports.md#downline-report). */
export const downlineQuerySchema = z
  .strictObject({ ...periodFields, parentId: idSchema.optional() })
  .refine(inOrder, toAfterFrom);

/** GET /api/reports/downline/export: the report as a file (docs/product/reports.md#exports). */
export const downlineExportQuerySchema = z
  .strictObject({ ...periodFields, parentId: idSchema.optional(), format: exportFormatSchema })
  .refine(inOrder, toAfterFrom);
export type DownlineQuery = z.infer<typeof downlineQuerySchema>;

const downlineFigures = z.object({
  /** Settled games of the subtree, as recorded with each game (decision 006), and their sums. */
  settledGames: z.number(),
  numbersSold: z.number(),
  pool: moneyAmountSchema,
  prizes: moneyAmountSchema,
  commission: moneyAmountSchema,
  voidedGames: z.number(),
  /** Money that crossed the subtree's edge: top-ups into it, transfers in and out of it, take-backs out of it. */
  topUps: moneyAmountSchema,
  transfersReceived: moneyAmountSchema,
  transfersSent: moneyAmountSchema,
  takenBack: moneyAmountSchema,
  /** What admin corrections took off the subtree's accounts (docs/product/money.md#corrections). */
  corrections: moneyAmountSchema,
});
export type DownlineFigures = z.infer<typeof downlineFigures>;

export const downlineRowSchema = downlineFigures.extend({
  user: z.object({
    id: z.number(),
    username: z.string(),
    fullName: z.string(),
    role: z.string(),
    status: z.string(),
    /** A deleted child still has its history in the period. */
    deleted: z.boolean(),
  }),
});
export type DownlineRow = z.infer<typeof downlineRowSchema>;

export const downlineSchema = z.object({
  /** Whose direct children the rows are. */
  parent: z.object({ id: z.number(), username: z.string(), fullName: z.string(), role: z.string() }),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z.array(downlineRowSchema),
  totals: downlineFigures,
});
export type Downline = z.infer<typeof downlineSchema>;

/** The longest period the activity report answers, in days (docs/product/reports.md#activity). */
export const ACTIVITY_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/**
 * GET /api/reports/activity (docs/product/reports.md#activity): either the last `days` whole local
 * days up to today, or whole local days `from` to `to` inclusive; in `tz` (default UTC).
 */
export const activityQuerySchema = z
  .strictObject({
    days: z.coerce
      .number({ error: 'days must be a whole number of days' })
      .int({ error: 'days must be a whole number of days' })
      .min(1, { error: 'days must be at least 1' })
      .max(ACTIVITY_MAX_DAYS, { error: `days must be at most ${ACTIVITY_MAX_DAYS}` })
      .optional(),
    from: z.iso.date({ error: 'from must be a day as YYYY-MM-DD' }).optional(),
    to: z.iso.date({ error: 'to must be a day as YYYY-MM-DD' }).optional(),
    tz: timeZoneSchema.optional(),
  })
  .superRefine((query, context) => {
    const period = query.from !== undefined || query.to !== undefined;
    if (query.days !== undefined && period) {
      context.addIssue({ code: 'custom', message: 'Give either days or from and to, not both', path: ['days'] });
    } else if (query.days === undefined && !period) {
      context.addIssue({ code: 'custom', message: 'Give days, or from and to', path: ['days'] });
    } else if (period && query.from === undefined) {
      context.addIssue({ code: 'custom', message: 'from is required with to', path: ['from'] });
    } else if (period && query.to === undefined) {
      context.addIssue({ code: 'custom', message: 'to is required with from', path: ['to'] });
    } else if (query.from !== undefined && query.to !== undefined) {
      const span = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS + 1;
      if (span < 1) context.addIssue({ code: 'custom', message: 'to must be on or after from', path: ['to'] });
      else if (span > ACTIVITY_MAX_DAYS) {
        context.addIssue({
          code: 'custom',
          message: `The period can be at most ${ACTIVITY_MAX_DAYS} days`,
          path: ['to'],
        });
      }
    }
  });
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** Settled games and their sums: amounts are decimal strings (cents exact). */
const activityFigures = z.object({
  games: z.number(),
  pool: moneyAmountSchema,
  prizes: moneyAmountSchema,
  commission: moneyAmountSchema,
});
export type ActivityFigures = z.infer<typeof activityFigures>;

export const activityDaySchema = activityFigures.extend({ date: z.string() });
export type ActivityDay = z.infer<typeof activityDaySchema>;

/** A figure of the period beside the same figure of the period just before it (as long). */
const change = <T extends z.ZodType>(figure: T) => z.object({ current: figure, previous: figure });

export const activitySchema = z.object({
  timeZone: z.string(),
  /** The period's first and last local day, and its start (inclusive) and end (exclusive) as instants. */
  firstDay: z.string(),
  lastDay: z.string(),
  from: z.string(),
  to: z.string(),
  /** Every day of the period in order, days without games as zeros. */
  days: z.array(activityDaySchema),
  totals: activityFigures,
  /** The period of the same number of days just before this one. */
  previous: activityFigures.extend({ from: z.string(), to: z.string() }),
  /** Top-ups into the accounts in scope (everyone's for the admin): money that entered the system. */
  topUps: change(moneyAmountSchema),
  /** Accounts in scope created in the period and in the one before (still live). */
  newAccounts: z.object({
    superagent: change(z.number()),
    agent: change(z.number()),
    user: change(z.number()),
  }),
  /**
   * Games opened in the period whose outcome the upline cannot take on trust: those voided after
   * their freeze, and the LOT-DRAW-1 ones (server randomness only) that were neither voided nor
   * discarded. Each game counts once.
   */
  /** `voidedAfterWinner`: of the voided, those voided after a draw named a winner (decision 094). */
  flaggedGames: z.object({ voided: z.number(), voidedAfterWinner: z.number(), serverRandomness: z.number() }),
});
export type Activity = z.infer<typeof activitySchema>;
