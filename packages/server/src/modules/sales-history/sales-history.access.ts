import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import type { Role } from '@lot/domain/roles';
import { type Db } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { games } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';
import { roleInScope } from '../users/users.repository.ts';

/** Whose games a list holds: one superagent's, agent's or user's, or everyone's (the admin's filter). */
export type SalesScope = { role: Exclude<Role, 'admin'>; id: number } | { role: 'all' };

const read = (caller: Caller): SQL | undefined => readableByRecord(caller, games);

/**
 * Who may do what with the sales history (docs/product/roles-and-scope.md#authorization-table):
 * every path of this module asks here first. A game is a record: nobody edits or deletes one.
 * Games are judged by the hierarchy recorded with them (decision 006), so after a player moves,
 * the new parent does not see games played under the old one; a game outside is a 404.
 */
export const salesAccess = {
  /** Read one game: admin all, the superagent and parent recorded with it, the player. */
  read,

  /**
   * The games a list (or its export) of `scope`'s games holds: those the caller may read that are
   * also that person's by the same rule. `checkOwner` must pass before the list is answered.
   */
  list: (caller: Caller, scope: SalesScope): (SQL | undefined)[] => [
    read(caller),
    scope.role === 'all' ? undefined : readableByRecord(scope, games),
  ],

  /**
   * A person whose games are asked for must be in the caller's reach and of the named role: the
   * statement reading that person's role as the caller may see it (none when out of reach), for
   * `assertOwner`. The caller's own games and everyone's need no lookup (undefined): the sign-in
   * check has just read the caller, live and active.
   */
  ownerLookup(caller: Caller, scope: SalesScope): SQL | undefined {
    if (scope.role === 'all' || (scope.id === caller.id && scope.role === caller.role)) return undefined;
    return roleInScope(caller, scope.id);
  },

  /** The owner's role as `ownerLookup` read it (null when out of reach) must be the one asked for. */
  assertOwner(scope: SalesScope, role: string | null | undefined): void {
    if (role !== scope.role) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  },

  /** `ownerLookup` and `assertOwner` as a read of its own. */
  async checkOwner(db: Db, caller: Caller, scope: SalesScope): Promise<void> {
    const lookup = salesAccess.ownerLookup(caller, scope);
    if (!lookup) return;
    const [owner] = await queryPrepared<{ role: string }>(db, lookup);
    salesAccess.assertOwner(scope, owner?.role);
  },

  /** Describe (record) a game: only one's own (the route admits players alone). */
  record(caller: Caller, input: { userId: number }): void {
    if (input.userId !== caller.id) throw new AppError('FORBIDDEN', SERVER_MESSAGES.recordOwnGamesOnly);
  },
};
