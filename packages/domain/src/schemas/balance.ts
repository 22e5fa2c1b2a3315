import { z } from 'zod';
import { MAX_AMOUNT_CENTS, parseAmountToCents } from '../money.ts';
import { MESSAGES } from '../messages.ts';

/**
 * An amount as the API accepts it (JSON number or string, > 0, at most two decimals, at most
 * 1,000,000,000.00), parsed to integer cents.
 */
export const amountSchema = z.unknown().transform((value, ctx) => {
  const cents = parseAmountToCents(value);
  if (cents === null || cents <= 0) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountInvalid });
    return z.NEVER;
  }
  if (cents > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.amountTooLarge });
    return z.NEVER;
  }
  return cents;
});
