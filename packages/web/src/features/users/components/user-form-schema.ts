import { z } from 'zod';
import { MESSAGES } from '@lot/domain/messages';
import type { UserStatus } from '@lot/domain/roles';
import { fullNameSchema, passwordSchema, statusSchema, usernameSchema } from '@lot/domain/schemas/users';
import type { UserFormRules } from './user-form-rules.ts';

export type UserFormValues = {
  username: string;
  password: string;
  fullName: string;
  shopName: string;
  status: UserStatus;
  parentId: string;
};

export const USER_FORM_FIELDS = ['username', 'password', 'fullName', 'shopName', 'status', 'parentId'] as const;

/** A blank password on edit keeps the current one; anything typed must pass the usual rule. */
const newPasswordSchema = z.string().superRefine((value, ctx) => {
  if (value === '') return;
  const result = passwordSchema.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'Invalid' });
});

const required = (message: string) => z.string().trim().min(1, message);

/**
 * The user form's check: docs/product/validation-and-errors.md#user-forms, in the domain's words,
 * so the client and the server say the same thing. A strict form checks lengths and characters;
 * the others only require. The username is not checked on edit: it cannot change.
 */
export function userFormSchema(
  editing: boolean,
  { strict, parent }: UserFormRules,
): z.ZodType<UserFormValues, UserFormValues> {
  const createPassword = strict ? passwordSchema : z.string().min(1, MESSAGES.passwordRequired);
  return z.object({
    username: editing ? z.string() : strict ? usernameSchema : required(MESSAGES.usernameRequired),
    password: editing ? (strict ? newPasswordSchema : z.string()) : createPassword,
    fullName: strict ? fullNameSchema : required(MESSAGES.fullNameRequired),
    shopName: z.string().trim().max(100, MESSAGES.shopNameMax),
    status: statusSchema,
    parentId: parent?.requiredMessage ? z.string().min(1, parent.requiredMessage) : z.string(),
  });
}
