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

/** 100000000 → "100,000,000" (without Intl, which the web's first screens do not load). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const whole = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min}`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(min, message)
    .max(max, `${name} must be at most ${grouped(max)}`);
};

/**
 * How many rows a page of a list holds, 1 to `max` (docs/product/validation-and-errors.md#list-queries):
 * every list's `limit` or `pageSize`, so a page too big reads 'Choose at most 1,000 rows per page'
 * instead of zod's own wording. More rows than a page holds come from the list's export.
 */
export const pageSizeSchema = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'Rows per page must be a whole number' })
    .int('Rows per page must be a whole number')
    .min(1, 'Choose at least 1 row per page')
    .max(max, `Choose at most ${grouped(max)} rows per page`)
    .default(fallback);

/** How many rows a list skips (`offset`). */
export const offsetSchema = whole('Offset', 0, 100_000_000).default(0);

/** Which page of a list (`page`, from 1). */
export const pageNumberSchema = whole('Page', 1, 1_000_000).default(1);

export const FROM_AFTER_TO = 'From must be on or before To';

/**
 * A list's period, `from` and `to` as instants: `from` after `to` is refused on `from`
 * (docs/product/validation-and-errors.md#date-filters), since an empty list would read as "nothing
 * happened". Use with `.superRefine` on the list's query and on its export's.
 */
export function fromNotAfterTo(query: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: FROM_AFTER_TO });
  }
}

export const listQuerySchema = z.strictObject({
  limit: pageSizeSchema(1000, 1000),
  offset: offsetSchema,
});

/**
 * Money as the API writes it (docs/product/money.md): a decimal string with exactly two places,
 * made from integer cents; negative only where a figure is signed (a net, a variance, a statement
 * row). The pattern and format are documentation (the OpenAPI document's `Money`); the server
 * writes these with `formatCents` or `numeric(20, 2)`.
 */
export const moneyAmountSchema = z.string();
