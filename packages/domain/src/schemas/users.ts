import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { ROLES, USER_STATUSES } from '../roles.ts';
import { idSchema, listQuerySchema, moneyAmountSchema, parentIdSchema } from './common.ts';

/** docs/product/runtime-and-security.md#logos: a logo is a JPG, PNG or GIF "up to 5MB" (checked by content on the server). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;

/** Field rules shared by every user form and the server (docs/product/validation-and-errors.md#user-forms). */
export const usernameSchema = z
  .string({ error: MESSAGES.usernameRequired })
  .trim()
  // Fullwidth and other compatibility forms become their plain letters first (decision 047).
  .normalize('NFKC')
  .min(1, MESSAGES.usernameRequired)
  .min(3, MESSAGES.usernameMin)
  .max(50, MESSAGES.usernameMax)
  .regex(/^[A-Za-z0-9_]*$/, MESSAGES.usernameChars);

export const passwordSchema = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(6, MESSAGES.passwordMin)
  .max(128, MESSAGES.passwordMax)
  .refine((password) => password.trim() !== '', MESSAGES.passwordBlank);

export const fullNameSchema = z
  .string({ error: MESSAGES.fullNameRequired })
  .trim()
  .min(1, MESSAGES.fullNameRequired)
  .min(2, MESSAGES.fullNameMin)
  .max(100, MESSAGES.fullNameMax);

/** Optional; blank means none. */
export const shopNameSchema = z
  .union([z.string().trim().max(100, MESSAGES.shopNameMax), z.null()])
  .transform((value) => (value ? value : null));

export const roleSchema = z.enum(ROLES, { error: MESSAGES.roleInvalid });
export const statusSchema = z.enum(USER_STATUSES, { error: MESSAGES.statusInvalid });

/** POST /api/users. The server applies the strictest form's rules to every caller. */
export const createUserInputSchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  fullName: fullNameSchema,
  shopName: shopNameSchema.optional(),
  role: roleSchema.default('user'),
  status: statusSchema.default('active'),
  parentId: parentIdSchema.optional(),
});
export type CreateUserInput = z.infer<typeof createUserInputSchema>;

/**
 * PUT /api/users/{id}, as JSON or as multipart form data (profile page: fullName, shopName and
 * an optional logo). Username and role never change; they are accepted only when unchanged so
 * a form may send the whole record. A blank password means "keep the current one".
 */
export const updateUserInputSchema = z.strictObject({
  username: z.string().meta({ maxLength: 50, description: 'Ignored: usernames never change.' }).optional(),
  role: z
    .string()
    .meta({ enum: [...ROLES], description: 'Ignored: roles never change.' })
    .optional(),
  password: z
    .preprocess((value) => (value === '' || value === null ? undefined : value), passwordSchema.optional())
    .optional(),
  fullName: fullNameSchema.optional(),
  shopName: shopNameSchema.optional(),
  status: statusSchema.optional(),
  parentId: parentIdSchema.optional(),
  removeLogo: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((value) => value === true || value === 'true')
    .optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;

/**
 * GET /api/users/role/{role} and the other users lists: `search` holds part of a username, full
 * name or shop name (a plain user's transfer picker: of a username or full name, the fields it
 * shows); `status` and `parentId` (whose children) narrow it.
 */
export const listUsersQuerySchema = listQuerySchema.extend({
  search: z.string().trim().max(100, 'A search is at most 100 characters').optional(),
  status: statusSchema.optional(),
  parentId: idSchema.optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

export const roleParamsSchema = z.strictObject({ role: roleSchema });
export const parentRoleParamsSchema = z.strictObject({ parentId: idSchema, role: roleSchema });

const userBase = {
  id: z.number(),
  username: z.string(),
  fullName: z.string(),
  role: roleSchema,
  status: statusSchema,
};

/** What everyone in scope sees of a user. */
export const userSchema = z.object({
  ...userBase,
  shopName: z.string().nullable(),
  parentId: z.number().nullable(),
  hasLogo: z.boolean(),
  createdAt: z.string(),
  balance: z.object({ amount: moneyAmountSchema }),
  parent: z.object({ id: z.number(), username: z.string(), fullName: z.string() }).nullable(),
});
export type User = z.infer<typeof userSchema>;

/** What a plain user sees of other users: enough to pick a transfer receiver. */
export const publicUserSchema = z.object(userBase);
export type PublicUser = z.infer<typeof publicUserSchema>;

export { idSchema };
