import { z } from 'zod';
import { GAME_RULES } from '../game.ts';
import { hasTooManyDecimals, MAX_AMOUNT_CENTS, parseAmountToCents } from '../money.ts';
import { MESSAGES } from '../messages.ts';
import { idSchema, moneyAmountSchema, offsetSchema, pageSizeSchema } from './common.ts';

/** A money value that may be zero (a prize, a prize total, the pool), parsed to cents. */
export const moneySchema = z.unknown().transform((value, ctx) => {
  const cents = parseAmountToCents(value);
  if (cents === null || cents > MAX_AMOUNT_CENTS * 100) {
    ctx.addIssue({ code: 'custom', message: 'Must be an amount with at most two decimals' });
    return z.NEVER;
  }
  return cents;
});

/**
 * The client's commission (pool − prizes). Negative when the settings pay out more than the pool:
 * that is a game that does not add up, which the server answers with 422, not a parse error.
 */
const commissionSchema = z.unknown().transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const negative = text.startsWith('-');
  const cents = parseAmountToCents(negative ? text.slice(1) : text);
  if (cents === null || cents > MAX_AMOUNT_CENTS * 100) {
    ctx.addIssue({ code: 'custom', message: 'Must be an amount with at most two decimals' });
    return z.NEVER;
  }
  return negative ? -cents : cents;
});

export const betSchema = z.unknown().transform((value, ctx) => {
  const cents = parseAmountToCents(value);
  if (cents === null && hasTooManyDecimals(value)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.betDecimals });
    return z.NEVER;
  }
  if (cents === null || cents < GAME_RULES.minBetCents || cents > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.betInvalid });
    return z.NEVER;
  }
  return cents;
});

const numberSchema = z.number().int().min(GAME_RULES.minNumber).max(GAME_RULES.maxNumber);
export const startSchema = z
  .number({ error: MESSAGES.rangeStartInvalid })
  .int(MESSAGES.rangeStartInvalid)
  .min(1, MESSAGES.rangeStartInvalid)
  .max(99, MESSAGES.rangeStartInvalid);
export const endSchema = z
  .number({ error: MESSAGES.rangeEndInvalid })
  .int(MESSAGES.rangeEndInvalid)
  .min(2, MESSAGES.rangeEndInvalid)
  .max(100, MESSAGES.rangeEndInvalid);

/**
 * The play screen's Number Range and Bet Amount (docs/product/validation-and-errors.md#game-inputs) as typed: the start a whole number
 * from 1, below the end; the end at most 100; the bet at least 1 with at most two decimals (cents).
 */
export const gameSetupSchema = z
  .strictObject({
    startRange: z.coerce.number({ error: MESSAGES.rangeStartInvalid }).pipe(startSchema),
    endRange: z.coerce.number({ error: MESSAGES.rangeEndInvalid }).pipe(endSchema),
    betAmount: betSchema,
  })
  .refine((game) => game.startRange < game.endRange, { message: MESSAGES.rangeEndInvalid, path: ['endRange'] });
export type GameSetup = z.infer<typeof gameSetupSchema>;

/**
 * A phone number of plausible form (docs/product/validation-and-errors.md#game-inputs): only digits,
 * spaces, `+` and `-`, with 7 to 15 digits.
 */
export function isPlausiblePhone(phone: string): boolean {
  if (!/^[\d +-]+$/.test(phone)) return false;
  const digits = phone.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

export const participantSchema = z.strictObject({
  number: numberSchema,
  name: z.string({ error: MESSAGES.participantNameRequired }).trim().min(1, MESSAGES.participantNameRequired).max(100),
  phoneNumber: z
    .string({ error: MESSAGES.participantPhoneRequired })
    .trim()
    .min(1, MESSAGES.participantPhoneRequired)
    .max(30, MESSAGES.participantPhoneInvalid)
    .refine((phone) => phone === '' || isPlausiblePhone(phone), MESSAGES.participantPhoneInvalid),
});
export type ParticipantInput = z.infer<typeof participantSchema>;

/** The Enter Participant Details form. */
export const participantFormSchema = participantSchema.omit({ number: true });

const winnerEntrySchema = participantSchema.extend({
  position: z.number().int().min(1).max(1000),
  prizeAmount: moneySchema,
});

/**
 * POST /api/sales-history: the original client's call, kept only as a compatibility path. It answers the record
 * of a server-run game whose draws are complete and which the body describes exactly (`gameId`
 * names it; without it, the caller's latest settled game); anything else is refused.
 */
export const saleInputSchema = z
  .strictObject({
    gameId: idSchema.optional(),
    userId: idSchema,
    startRange: startSchema,
    endRange: endSchema,
    betAmount: betSchema,
    totalPrize: moneySchema,
    commission: commissionSchema,
    selectedNumbersCount: z.number().int().min(1).max(100),
    winningNumbersCount: z.number().int().min(0).max(100),
    gameData: z.strictObject({
      selectedNumbers: z.array(participantSchema).min(1, MESSAGES.noNumbersSelected).max(100),
      winningNumbers: z.array(numberSchema).max(100),
      drawCount: z.number().int().min(0).max(100),
      totalPrizePool: moneySchema,
      startRange: startSchema,
      endRange: endSchema,
      betAmount: betSchema,
    }),
    winners: z.array(winnerEntrySchema).max(100),
  })
  .refine((game) => game.startRange < game.endRange, { message: MESSAGES.rangeEndInvalid, path: ['endRange'] });
export type SaleInput = z.infer<typeof saleInputSchema>;

const gameWinnerSchema = z.object({
  id: z.number(),
  number: z.number(),
  name: z.string(),
  phoneNumber: z.string(),
  position: z.number(),
  prizeAmount: moneyAmountSchema,
});

export const saleSchema = z.object({
  id: z.number(),
  /**
   * The shop's game number, the one its round has ("Game #N"; decision 037); null for a record
   * without a round (none is made so any more).
   */
  number: z.number().nullable(),
  userId: z.number(),
  createdAt: z.string(),
  startRange: z.number(),
  endRange: z.number(),
  betAmount: moneyAmountSchema,
  totalPrize: moneyAmountSchema,
  commission: moneyAmountSchema,
  selectedNumbersCount: z.number(),
  winningNumbersCount: z.number(),
  user: z.object({
    id: z.number(),
    username: z.string(),
    fullName: z.string(),
    parent: z.object({ id: z.number(), fullName: z.string() }).nullable(),
  }),
});
export type Sale = z.infer<typeof saleSchema>;

export const saleDetailSchema = saleSchema.extend({
  gameData: z.object({
    selectedNumbers: z.array(z.object({ number: z.number(), name: z.string(), phoneNumber: z.string() })),
    winningNumbers: z.array(z.number()),
    drawCount: z.number(),
    totalPrizePool: moneyAmountSchema,
    startRange: z.number(),
    endRange: z.number(),
    betAmount: moneyAmountSchema,
  }),
  winners: z.array(gameWinnerSchema),
  transactionId: z.number(),
});
export type SaleDetail = z.infer<typeof saleDetailSchema>;

export const salesQuerySchema = z.strictObject({
  limit: pageSizeSchema(1000, 1000),
  offset: offsetSchema,
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
  agentId: idSchema.optional(),
  userId: idSchema.optional(),
});
export type SalesQuery = z.infer<typeof salesQuerySchema>;

/** Admin filter: role + userId pick a superagent's, an agent's or a user's games. */
export const adminSalesQuerySchema = salesQuerySchema.extend({
  role: z.enum(['superagent', 'agent', 'user']).optional(),
});
export type AdminSalesQuery = z.infer<typeof adminSalesQuerySchema>;
