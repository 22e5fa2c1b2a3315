import { z } from 'zod';
import { parsePercentToBps } from '../game.ts';
import { MESSAGES } from '../messages.ts';
import { idSchema, listQuerySchema } from './common.ts';

/** A percentage 0–100 with at most two decimals, parsed to basis points. */
export const percentSchema = z.unknown().transform((value, ctx) => {
  if (value === undefined || value === null || value === '') {
    ctx.addIssue({ code: 'custom', message: MESSAGES.percentRequired });
    return z.NEVER;
  }
  const bps = parsePercentToBps(value);
  if (bps === null) {
    // Only numbers and strings are read: Number() on an object calls its toString, which a
    // hostile body may have replaced ({"toString": "x"} threw a TypeError, a 500).
    const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
    const inRange = Number.isFinite(n) && n >= 0 && n <= 100;
    ctx.addIssue({ code: 'custom', message: inRange ? MESSAGES.percentDecimals : MESSAGES.percentRange });
    return z.NEVER;
  }
  return bps;
});

/** Position: a whole number ≥ 1, 1 when left out (the form's default). */
export const positionSchema = z.preprocess(
  (value) => (value === undefined || value === '' ? 1 : typeof value === 'string' ? Number(value) : value),
  z
    .number({ error: MESSAGES.positionInvalid })
    .int(MESSAGES.positionInvalid)
    .min(1, MESSAGES.positionInvalid)
    .max(1000, 'Position must be at most 1000'),
);

export const winnerInputSchema = z.strictObject({
  name: z
    .string({ error: MESSAGES.nameRequired })
    .trim()
    .min(1, MESSAGES.nameRequired)
    .max(100, 'Name must be at most 100 characters'),
  percent: percentSchema,
  position: positionSchema,
  description: z
    .union([z.string().trim().max(500, 'Description must be at most 500 characters'), z.null()])
    .transform((value) => (value ? value : null))
    .optional(),
  isActive: z.boolean({ error: 'Active must be true or false' }).default(true),
  /** Empty means a global configuration (admins only). */
  userId: z.preprocess((value) => (value === '' ? null : value), z.union([idSchema, z.null()])).optional(),
});
export type WinnerInput = z.infer<typeof winnerInputSchema>;

export const winnerSchema = z.object({
  id: z.number(),
  userId: z.number().nullable(),
  name: z.string(),
  percent: z.string(),
  position: z.number(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  user: z.object({ id: z.number(), fullName: z.string(), username: z.string() }).nullable(),
});
export type Winner = z.infer<typeof winnerSchema>;

/** The configuration a game uses: the player's own active ones by position, else the active global ones. */
export const effectiveWinnersSchema = z.object({
  source: z.enum(['own', 'global', 'none']),
  winners: z.array(winnerSchema),
});
export type EffectiveWinners = z.infer<typeof effectiveWinnersSchema>;

export const listWinnersQuerySchema = listQuerySchema.extend({
  userId: z.union([idSchema, z.literal('global')]).optional(),
});
