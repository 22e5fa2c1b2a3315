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
