import { z } from 'zod';
import { hasTooManyDecimals, MAX_AMOUNT_CENTS, parseAmountToCents } from '../money.ts';
import { MESSAGES } from '../messages.ts';
import { idSchema, moneyAmountSchema, offsetSchema, pageSizeSchema, requiredIdSchema } from './common.ts';

/**
 * A positive number too long to parse as an amount (1e12, "10000000000000", JSON 1e309, which
 * parses to Infinity): the person typed a number, so they are told the limit, not "not valid".
 * Only compared, never used as money.
 */
function isOversized(value: unknown): boolean {
  const limit = MAX_AMOUNT_CENTS / 100;
  if (typeof value === 'number') return value > limit;
  return typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value.trim()) && Number(value) > limit;
}

/**
 * An amount as the API accepts it (JSON number or string, > 0, at most two decimals, at most
 * 1,000,000,000.00), parsed to integer cents.
 */
export const amountSchema = z.unknown().transform((value, ctx) => {
  const cents = parseAmountToCents(value);
  if (cents === null ? isOversized(value) : cents > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountTooLarge });
    return z.NEVER;
  }
  if (cents === null && hasTooManyDecimals(value)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountDecimals });
    return z.NEVER;
  }
  if (cents === null || cents <= 0) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountInvalid });
    return z.NEVER;
  }
  return cents;
});

export const topupInputSchema = z.strictObject({
  userId: idSchema,
  amount: amountSchema,
});
export type TopupInput = z.infer<typeof topupInputSchema>;

export const transferInputSchema = z.strictObject({
  receiverId: requiredIdSchema(MESSAGES.receiverRequired),
  amount: amountSchema,
});
export type TransferInput = z.infer<typeof transferInputSchema>;

export const decreaseInputSchema = z.strictObject({
  userId: idSchema,
  amount: amountSchema,
  /** A correction by the admin says why (docs/decisions/013). */
  description: z
    .string({ error: 'A description is required' })
    .trim()
    .min(1, 'A description is required')
    .max(200, 'Description must be at most 200 characters'),
});
export type DecreaseInput = z.infer<typeof decreaseInputSchema>;

/**
 * A take-back (docs/product/money.md#take-back): the caller takes money back from an account in
 * its scope, into its own balance, and says why; optionally as cash taken from the shop's drawer.
 */
export const takeBackInputSchema = z.strictObject({
  userId: idSchema,
  amount: amountSchema,
  reason: z
    .string({ error: MESSAGES.takeBackReasonRequired })
    .trim()
    .min(1, MESSAGES.takeBackReasonRequired)
    .max(200, 'Reason must be at most 200 characters'),
  /**
   * The money was taken in cash from the drawer of the shop's open shift: the take-back records that
   * pickup in the same statement (docs/product/shifts.md#cash-movements, decision 091).
   */
  fromDrawer: z.boolean({ error: 'fromDrawer must be true or false' }).optional(),
});
export type TakeBackInput = z.infer<typeof takeBackInputSchema>;

export const balanceSchema = z.object({ userId: z.number(), amount: moneyAmountSchema });
export type Balance = z.infer<typeof balanceSchema>;

export const TRANSACTION_TYPES = ['topup', 'transfer', 'decrease', 'game', 'takeback'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

const party = z.object({ id: z.number(), username: z.string(), fullName: z.string() });

export const transactionSchema = z.object({
  id: z.number(),
  type: z.enum(TRANSACTION_TYPES),
  userId: z.number(),
  receiverId: z.number().nullable(),
  amount: moneyAmountSchema,
  /** A game's pool: pending while the game is drawn, completed once settled, voided when returned. */
  status: z.enum(['completed', 'pending', 'failed', 'voided']),
  description: z.string().nullable(),
  createdAt: z.string(),
  user: party,
  receiver: party.nullable(),
  /** The public code of the game a `game` row belongs to (its verify page), else null. */
  gameCode: z.string().nullable(),
  /** That game's number at its shop ("Game #N", docs/product/game.md#game-numbers), else null. */
  gameNumber: z.number().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** What a money call answers: the transaction and the new balance (the sender's, for a transfer). */
export const moneyResultSchema = z.object({
  message: z.string(),
  transaction: transactionSchema,
  balance: balanceSchema,
});
export type MoneyResult = z.infer<typeof moneyResultSchema>;

export const listTransactionsQuerySchema = z.strictObject({
  limit: pageSizeSchema(1000, 1000),
  offset: offsetSchema,
  type: z.enum(TRANSACTION_TYPES).optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
  search: z.string().trim().max(100).optional(),
  /**
   * Relative to the caller: `received` is money that came into their balance (top-ups and
   * transfers to them), `sent` money that left it (transfers out, decreases, game pools).
   */
  direction: z.enum(['sent', 'received']).optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuerySchema>;
