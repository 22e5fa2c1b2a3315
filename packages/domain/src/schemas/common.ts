import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

const INVALID_ID = { error: 'Must be a valid id' };

/**
 * A numeric id from JSON (an integer) or a form/path string of digits ("12"). Nothing else is
 * coerced: `true`, `[5]`, "0x10" or "1e1" are not ids.
 */
export const idSchema = z
  .union([z.number(INVALID_ID), z.string(INVALID_ID).regex(/^\d{1,10}$/, INVALID_ID)], INVALID_ID)
  .transform(Number)
  .pipe(z.number().int(INVALID_ID).positive(INVALID_ID).max(2_147_483_647, INVALID_ID));

/** A required id whose absence has its own message ("Please select a receiver"). */
export const requiredIdSchema = (message: string) =>
  z
    .unknown()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === '') {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value as unknown;
    })
    .pipe(idSchema);

export const idParamsSchema = z.strictObject({ id: idSchema });

/** An optional parent id: empty string or null means "no parent". */
export const parentIdSchema = z.preprocess(
  (value) => (value === '' ? null : value),
  z.union([idSchema, z.null()], { error: MESSAGES.parentInvalid }),
);

export const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
});

/**
 * Money as the API writes it (docs/product/money.md): a decimal string with exactly two places,
 * made from integer cents; negative only where a figure is signed (a net, a variance, a statement
 * row). The pattern and format are documentation (the OpenAPI document's `Money`); the server
 * writes these with `formatCents` or `numeric(20, 2)`.
 */
export const moneyAmountSchema = z.string().meta({
  id: 'Money',
  description:
    'An amount of money: a decimal string with exactly two places ("1250.00"), integer cents in storage; negative only for signed figures (a net, a variance, a statement row).',
  format: 'decimal',
  pattern: '^-?\\d{1,17}\\.\\d{2}$',
  maxLength: 21,
  example: '1250.00',
});

/**
 * How the OpenAPI document shows a money input that is parsed to integer cents: a JSON number or a
 * decimal string with at most two decimals (docs/product/money.md#amount-input). Documentation only.
 */
export function decimalInputMeta(id: string | undefined, description: string, minimum: number, exclusive: boolean) {
  return {
    ...(id && { id }),
    description,
    anyOf: [
      { type: 'number', minimum, ...(exclusive && { exclusiveMinimum: true }), maximum: 1_000_000_000 },
      { type: 'string', pattern: '^\\d{1,10}(\\.\\d{1,2})?$', maxLength: 13 },
    ],
    example: '1250.00',
  };
}
