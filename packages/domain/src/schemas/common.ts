import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

/** A numeric id from JSON or a form/path string ("12"). */
export const idSchema = z.coerce
  .number({ error: 'Must be a valid id' })
  .int({ error: 'Must be a valid id' })
  .positive({ error: 'Must be a valid id' })
  .max(2_147_483_647, { error: 'Must be a valid id' });

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
