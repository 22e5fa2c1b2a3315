import { z } from 'zod';
import { idSchema } from './common.ts';

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
    pool: z.string(),
    prizes: z.string(),
    commission: z.string(),
  }),
  movements: z.object({
    topupsIn: z.string(),
    transfersIn: z.string(),
    transfersOut: z.string(),
    /** Admin corrections (decreases). */
    corrections: z.string(),
    /** Money taken back from the shop by its upline or the admin (take-backs). */
    takenBack: z.string(),
    /** Pools held by the first draw of a game that day. */
    gamePoolsHeld: z.string(),
    /** Pools returned by a void that day. */
    gamePoolsReturned: z.string(),
    /** The sum of the above, with its signs. */
    net: z.string(),
  }),
  openingBalance: z.string(),
  closingBalance: z.string(),
});
export type DayClose = z.infer<typeof dayCloseSchema>;
