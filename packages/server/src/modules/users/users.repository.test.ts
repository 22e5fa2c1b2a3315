import { describe, expect, it } from 'vitest';
import type { Caller } from '../../plugins/auth.ts';
import {
  countUsersQuery,
  publicUsersQuery,
  roleInScope,
  userExportPageQuery,
  usersPageQuery,
  usersWhere,
  type UsersFilter,
} from './users.repository.ts';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';

/**
 * The SQL each users list builds, per caller, role, search and status, so that a change to a
 * query shows as a diff of its snapshot: the page (ids from the index first; a plain user's
 * transfer picker reads public fields by name) carrying its total (the kept counts for the admin's
 * unsearched lists, a count otherwise) and, for a parent's users, the parent check; the total on
 * its own (for an empty page); an export's keyset page.
 */

const { admin, superagent, agent, user } = callers;

const lists: [string, Caller, UsersFilter][] = [
  ['admin, everyone', admin, {}],
  ['admin, a role', admin, { role: 'agent' }],
  ['admin, a role and status', admin, { role: 'user', status: 'inactive' }],
  ['admin, a role searched', admin, { role: 'user', search: '50%_off' }],
  ["admin, a parent's users", admin, { role: 'user', parentId: agent.id }],
  ['superagent, a role', superagent, { role: 'agent' }],
  ['superagent, a role searched by status', superagent, { role: 'user', search: 'ann', status: 'active' }],
  ['agent, a role', agent, { role: 'user' }],
  ['agent, a role by status', agent, { role: 'user', status: 'inactive' }],
  ['user, the transfer picker', user, {}],
  ['user, the transfer picker searched', user, { search: 'bo' }],
];

describe('the SQL of each users list', () => {
  it.each(lists)('%s', (_, caller, filter) => {
    const where = usersWhere(caller, filter);
    const page = { limit: 20, offset: 40 };
    const count = countUsersQuery(sqlOnly, caller, filter, where);
    // A searched list reads its count apart (decision 032).
    const extras = {
      total: filter.search ? undefined : count.getSQL(),
      parentRole: filter.parentId === undefined ? undefined : roleInScope(caller, filter.parentId),
    };
    expect({
      total: sqlOf(count),
      page: sqlOf(
        caller.role === 'user'
          ? publicUsersQuery(sqlOnly, where, page, extras)
          : usersPageQuery(sqlOnly, where, page, extras),
      ),
      exportPage: sqlOf(userExportPageQuery(sqlOnly, where, 500, 1_000)),
    }).toMatchSnapshot();
  });
});
