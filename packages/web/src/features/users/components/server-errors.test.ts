import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { mapUserFormError, USERNAME_EXISTS, USERNAME_TAKEN, VALIDATION_BANNER } from './server-errors.ts';

const FIELDS = ['username', 'password', 'fullName', 'shopName', 'parentId', 'status'] as const;
const failure = (message: string, fieldErrors?: Record<string, string>) =>
  new ApiError(400, message, 'VALIDATION_ERROR', fieldErrors);

describe('the user form maps server errors', () => {
  it('puts a duplicate username on the username field', () => {
    for (const message of ['Username must be unique', 'That username is already in use']) {
      expect(mapUserFormError(failure(message), 'Failed to create user', FIELDS)).toEqual({
        fieldErrors: { username: USERNAME_TAKEN },
        formError: USERNAME_EXISTS,
      });
    }
  });

  it('shows the validation banner, keeping messages of the fields the form has', () => {
    const mapped = mapUserFormError(
      failure('Validation failed', { fullName: 'Full Name is required', logo: 'Logo must be an image' }),
      'Failed to create user',
      FIELDS,
    );
    expect(mapped).toEqual({ fieldErrors: { fullName: 'Full Name is required' }, formError: VALIDATION_BANNER });
  });

  it("keeps the server's words once: on the field it names, in the banner otherwise", () => {
    const onField = mapUserFormError(
      failure('Parent must be an agent', { parentId: 'Parent must be an agent' }),
      'x',
      FIELDS,
    );
    expect(onField).toEqual({ fieldErrors: { parentId: 'Parent must be an agent' }, formError: null });
    const banner = mapUserFormError(failure('You cannot create this user'), 'x', FIELDS);
    expect(banner).toEqual({ fieldErrors: {}, formError: 'You cannot create this user' });
  });

  it("says the form's fallback when the server said nothing usable", () => {
    expect(mapUserFormError(new ApiError(502, '', 'UNKNOWN'), 'Failed to create user', FIELDS)).toEqual({
      fieldErrors: {},
      formError: 'Failed to create user',
    });
    expect(mapUserFormError(new Error('boom'), 'Failed to update user', FIELDS).formError).toBe(
      'Failed to update user',
    );
  });
});
