import { and, eq, isNull, ne, sql, type Column, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { Role } from '@lot/domain/roles';
import type { CreateUserInput, UpdateUserInput } from '@lot/domain/schemas/users';
import { users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';

/** Whoever the scope is judged for: a caller, or a person whose games are listed. */
export type Scoped = { id: number; role: Role };
type Target = { id: number; username: string; role: Role; status: string; parentId: number | null };

/**
 * Who a caller may see and act on (docs/product/roles-and-scope.md#scope), as a condition on `users`:
 * admin everyone; superagent S itself, its agents and the users under S or S's agents;
 * agent A itself and its direct users; a user only itself. Deleted users are never in scope.
 */
export function scopeCondition(caller: Scoped): SQL {
  const live = isNull(users.deletedAt);
  switch (caller.role) {
    case 'admin':
      return live;
    case 'superagent':
      return and(
        live,
        sql`(${users.id} = ${caller.id} OR ${users.parentId} = ${caller.id} OR ${users.parentId} IN (
          SELECT a.id FROM users a WHERE a.parent_id = ${caller.id} AND a.role = 'agent'))`,
      ) as SQL;
    case 'agent':
      return and(live, sql`(${users.id} = ${caller.id} OR ${users.parentId} = ${caller.id})`) as SQL;
    default:
      return and(live, eq(users.id, caller.id)) as SQL;
  }
}

/** The hierarchy a game was played under, copied onto its row when it was played. */
export type RecordedHierarchy = { userId: Column; parentId: Column; superagentId: Column };

/**
 * Who may read a record kept with the hierarchy it was played under (a game, a sale): admin all,
 * the superagent and the parent recorded with it, the player. It judges by the recorded hierarchy,
 * so after a player moves, the new parent does not see games played under the old one.
 */
export function readableByRecord(caller: Scoped, record: RecordedHierarchy): SQL | undefined {
  switch (caller.role) {
    case 'admin':
      return undefined;
    case 'superagent':
      return eq(record.superagentId, caller.id);
    case 'agent':
      return eq(record.parentId, caller.id);
    default:
      return eq(record.userId, caller.id);
  }
}

/** Which roles each role may create (docs/product/roles-and-scope.md#authorization-table). */
const CREATABLE: Record<Role, readonly Role[]> = {
  admin: ['admin', 'superagent', 'agent', 'user'],
  superagent: ['agent', 'user'],
  agent: ['user'],
  user: [],
};

/** The parent a caller gets when it may not choose: agents own their users, superagents their agents. */
function fixedParent(caller: Caller, role: Role): number | undefined {
  if (caller.role === 'agent') return caller.id;
  if (caller.role === 'superagent' && role === 'agent') return caller.id;
  return undefined;
}

function refuseChange<T>(field: string, given: T | undefined, current: T, message: string) {
  if (given !== undefined && given !== current) throw AppError.field(field, message);
}

/**
 * Who may do what with users (docs/product/roles-and-scope.md#authorization-table): every path of
 * the users module asks here first. Read, edit and delete reach only the caller's scope (an id
 * outside it is a 404 like a missing one: the service looks ids up through `scopeCondition`).
 */
export const usersAccess = {
  /**
   * The users a caller's list (or export) holds. Plain users see only other active users, and
   * only their public fields: enough to choose a transfer receiver.
   */
  list(caller: Caller): SQL[] {
    if (caller.role !== 'user') return [scopeCondition(caller)];
    return [isNull(users.deletedAt), eq(users.role, 'user'), eq(users.status, 'active'), ne(users.id, caller.id)];
  },

  /** Only the people who manage accounts export them. */
  export(caller: Caller): void {
    if (caller.role === 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.usersExportForbidden);
  },

  /** The role must be one the caller may create; answers the parent asked for, or the one the caller must use. */
  create(caller: Caller, input: Pick<CreateUserInput, 'role' | 'parentId'>): number | null {
    if (!CREATABLE[caller.role].includes(input.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
    const fixed = fixedParent(caller, input.role);
    const parentId = input.parentId ?? null;
    if (fixed === undefined) return parentId;
    if (parentId !== null && parentId !== fixed) throw AppError.field('parentId', SERVER_MESSAGES.parentNotYours);
    return fixed;
  },

  /**
   * What a caller may change of a user in scope: never the username or role; of themselves only
   * their profile; of someone else never the logo, nor the parent where the caller may not choose it.
   */
  edit(caller: Caller, target: Target, input: UpdateUserInput, changesLogo: boolean): void {
    refuseChange('username', input.username, target.username, 'Username cannot be changed');
    refuseChange('role', input.role, target.role, 'Role cannot be changed');
    if (target.id === caller.id) {
      refuseChange('status', input.status, target.status, 'You cannot change your own status');
      refuseChange('parentId', input.parentId, target.parentId, 'You cannot change your own parent');
      if (input.password !== undefined) throw AppError.field('password', SERVER_MESSAGES.ownPasswordViaChangePassword);
      return;
    }
    if (changesLogo) throw AppError.field('logo', SERVER_MESSAGES.ownLogoOnly);
    if (fixedParent(caller, target.role) !== undefined)
      refuseChange('parentId', input.parentId, target.parentId, 'You cannot change the parent of this user');
  },

  /** Anyone in scope but oneself. */
  delete(caller: Caller, target: { id: number }): void {
    if (target.id === caller.id) throw new AppError('FORBIDDEN', SERVER_MESSAGES.deleteOwnAccount);
  },
};
