import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { scopeCondition } from '../users/users.access.ts';

/** Whose balance a money call may reach, as conditions on `users` the money statement checks. */

/** A top-up, a correction, a take-back: an account in the caller's scope (docs/product/roles-and-scope.md#scope). */
export const accountReach = (caller: Caller): SQL => scopeCondition(caller);

/**
 * Who may receive from whom (docs/product/roles-and-scope.md#transfers): admins anyone, superagents and agents their
 * own scope, users any other active user of role user (to them an inactive user is invisible).
 */
export function receiverReach(caller: Caller): SQL {
  return caller.role === 'user'
    ? (and(eq(users.role, 'user'), eq(users.status, 'active'), isNull(users.deletedAt)) as SQL)
    : scopeCondition(caller);
}
