import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { ROLES } from '../roles.ts';
import { passwordSchema } from './users.ts';

export const signinInputSchema = z.strictObject({
  username: z.string({ error: MESSAGES.usernameRequired }).trim().min(1, MESSAGES.usernameRequired).max(100),
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(256),
});
export type SigninInput = z.infer<typeof signinInputSchema>;

/** The signed-in user kept by the client (docs/product/screens.md#browser-storage), plus the token on sign-in. */
export const sessionUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.string(),
  shopName: z.string().nullable(),
  hasLogo: z.boolean(),
  role: z.enum(ROLES),
  parentId: z.number().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const signinResponseSchema = sessionUserSchema.extend({
  accessToken: z.string(),
  message: z.string(),
});
export type SigninResponse = z.infer<typeof signinResponseSchema>;

export const changePasswordInputSchema = z.strictObject({
  currentPassword: z
    .string({ error: MESSAGES.currentPasswordRequired })
    .min(1, MESSAGES.currentPasswordRequired)
    .max(256),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** The Change Password modal: the server never sees the confirmation. */
export const changePasswordFormSchema = changePasswordInputSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

export const changePasswordResponseSchema = z.object({
  message: z.string(),
  accessToken: z.string(),
});
