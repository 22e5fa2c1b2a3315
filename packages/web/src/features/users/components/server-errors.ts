import { ApiError, errorMessage } from '../../../lib/api-client.ts';

export const USERNAME_TAKEN = 'This username is already taken. Please choose another one.';
export const USERNAME_EXISTS = 'Username already exists. Please choose a different username.';
export const VALIDATION_BANNER = 'Validation error: Please check all fields and try again.';

export type MappedError = { fieldErrors: Record<string, string>; formError: string | null };

/**
 * The server-message mapping in user forms (docs/product/validation-and-errors.md#server-message-mapping):
 * a duplicate username ('unique',
 * 'already in use') is about the username field; a message mentioning validation gets the
 * general banner; anything else keeps the server's own words, on their fields where it names
 * them and in the banner otherwise.
 */
export function mapUserFormError(error: unknown, fallback: string, formFields: readonly string[]): MappedError {
  const message = errorMessage(error, fallback);
  const given = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};
  // Only the fields this form shows can carry a message; the rest goes to the banner.
  const fields = Object.fromEntries(Object.entries(given).filter(([field]) => formFields.includes(field)));
  const lower = message.toLowerCase();
  if (lower.includes('unique') || lower.includes('already in use')) {
    return { fieldErrors: { username: USERNAME_TAKEN }, formError: USERNAME_EXISTS };
  }
  if (lower.includes('validation')) return { fieldErrors: fields, formError: VALIDATION_BANNER };
  // The banner repeats nothing already said under a field.
  const onField = Object.values(fields).includes(message);
  return { fieldErrors: fields, formError: onField ? null : message };
}
