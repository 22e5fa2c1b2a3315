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

/** A 6-digit code from the authenticator app, or one of the recovery codes (spaces and dashes ignored). */
export const twoFactorCodeSchema = z
  .string({ error: MESSAGES.twoFactorCodeRequired })
  .trim()
  .min(1, MESSAGES.twoFactorCodeRequired)
  .max(64, MESSAGES.twoFactorCodeInvalid);

/**
 * `POST /api/auth/signin` for a user with two-factor sign-in: the password was right, no session yet.
 * The challenge is a short-lived signed token for `POST /api/auth/signin/code`.
 */
export const twoFactorChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  message: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/**
 * A session answer; `enrolTwoFactor` is there (true) only when the user's role requires two-factor
 * sign-in and the user has not set it up: the session reaches the set-up calls only.
 */
export const sessionResponseSchema = signinResponseSchema.extend({ enrolTwoFactor: z.literal(true).optional() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const signinAnswerSchema = z.union([sessionResponseSchema, twoFactorChallengeSchema]);
export type SigninAnswer = z.infer<typeof signinAnswerSchema>;

export const signinCodeInputSchema = z.strictObject({
  challenge: z.string().min(1).max(2048),
  code: twoFactorCodeSchema,
});
export type SigninCodeInput = z.infer<typeof signinCodeInputSchema>;

export const twoFactorCodeInputSchema = z.strictObject({ code: twoFactorCodeSchema });
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeInputSchema>;

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** The caller's role requires it (the admin's policy). */
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** The set-up: the secret as text and as an otpauth:// URI (the QR code), confirmed by a first code. */
export const twoFactorEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;

/** The ten recovery codes, shown once (the caller's other sessions were ended). */
export const twoFactorEnabledSchema = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabledSchema>;

export const twoFactorPolicySchema = z.strictObject({ roles: z.array(z.enum(ROLES)).max(ROLES.length) });
export type TwoFactorPolicy = z.infer<typeof twoFactorPolicySchema>;

/** One of the caller's active sessions (profile). */
export const sessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  address: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;
