import { describe, expect, it } from 'vitest';
import type { Caller } from '../../lib/caller.ts';
import {
  countUsersQuery,
  publicUsersQuery,
  userExportPageQuery,
  usersQuery,
  usersWhere,
  type UsersFilter,
} from './users.repository.ts';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';

/**
 * The SQL each users list builds, per caller, role, search and status, so that a change to a
 * query shows as a diff of its snapshot: the total (the kept counts for the admin's unsearched
 * lists, a count otherwise), the page (ids from the index first; a plain user's transfer picker
 * reads public fields by name) and an export's keyset page.
 */

const { admin, superagent, agent, user } = callers;

const lists: [string, Caller, UsersFilter][] = [
  ['admin, everyone', admin, {}],
  ['admin, a role', admin, { role: 'agent' }],
  ['admin, a role and status', admin, { role: 'user', status: 'inactive' }],
  ['admin, a role searched', admin, { role: 'user', search: '50%_off' }],
  ["admin, a parent's users", admin, { role: 'user', parentId: agent.id }],
  [
    "admin, a parent's users searched by status",
    admin,
    { role: 'user', parentId: agent.id, search: 'corner', status: 'active' },
  ],
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
    expect({
      total: sqlOf(countUsersQuery(sqlOnly, caller, filter, where)),
      page: sqlOf(caller.role === 'user' ? publicUsersQuery(sqlOnly, where, page) : usersQuery(sqlOnly, where, page)),
      exportPage: sqlOf(userExportPageQuery(sqlOnly, where, 500, 1_000)),
    }).toMatchSnapshot();
  });
});
