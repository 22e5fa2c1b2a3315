import { describe, expect, it } from 'vitest';
import type { Caller } from '../../lib/caller.ts';
import { salesAccess, type SalesScope } from './sales-history.access.ts';
import {
  saleExportPageSql,
  salesListSql,
  salesPageSql,
  salesSet,
  type SalesFilter,
} from './sales-history.repository.ts';
import { callers, sqlOf } from '../../test/sql-snapshots.ts';

/**
 * The SQL each sales-history list builds, per caller and filter, so that a change to a query
 * shows as a diff of its snapshot: a near page in one statement with its totals (the
 * sales_daily rollup for a superagent's or everyone's games by dates, a count otherwise) and the
 * owner's role when the list is someone else's; a deep page's totals statement and its index-only
 * page ids (one read from the newest end, one from the oldest); an export's keyset page.
 */

const { admin, superagent, agent, user } = callers;
const DATES = { from: '2026-03-01T06:00:00.000Z', to: '2026-03-31T23:59:59.999Z' };
const HOURS = { from: '2026-03-01T06:00:00.000Z', to: '2026-03-01T18:00:00.000Z' };

const lists: [string, Caller, SalesScope, SalesFilter][] = [
  ['admin, everyone', admin, { role: 'all' }, {}],
  ['admin, everyone by dates', admin, { role: 'all' }, DATES],
  ['admin, everyone within one day', admin, { role: 'all' }, HOURS],
  ['admin, one user of everyone', admin, { role: 'all' }, { userId: user.id }],
  ['admin, a superagent by dates', admin, { role: 'superagent', id: superagent.id }, DATES],
  ['admin, an agent', admin, { role: 'agent', id: agent.id }, {}],
  ['superagent, own', superagent, { role: 'superagent', id: superagent.id }, {}],
  [
    'superagent, own by agent and dates',
    superagent,
    { role: 'superagent', id: superagent.id },
    { agentId: agent.id, ...DATES },
  ],
  ['superagent, own by user', superagent, { role: 'superagent', id: superagent.id }, { userId: user.id }],
  ['superagent, an agent', superagent, { role: 'agent', id: agent.id }, {}],
  ['agent, own', agent, { role: 'agent', id: agent.id }, {}],
  ['agent, own by user and dates', agent, { role: 'agent', id: agent.id }, { userId: user.id, ...DATES }],
  ['agent, a user', agent, { role: 'user', id: user.id }, {}],
  ['user, own', user, { role: 'user', id: user.id }, {}],
  ['user, own by dates', user, { role: 'user', id: user.id }, DATES],
];

describe('the SQL of each sales-history list', () => {
  it.each(lists)('%s', (_, caller, scope, filter) => {
    const set = salesSet(caller, scope, filter);
    expect({
      nearPage: sqlOf(salesListSql(set, salesAccess.ownerLookup(caller, scope), { limit: 20, offset: 0 })),
      // A deep page: the totals and the owner's role first, then the page.
      totals: sqlOf(salesListSql(set, salesAccess.ownerLookup(caller, scope))),
      deepPage: sqlOf(salesPageSql(set.where, { limit: 20, offset: 1_000 }, 3_000)),
      // Past the middle: ids from the oldest end.
      pastTheMiddle: sqlOf(salesPageSql(set.where, { limit: 20, offset: 1_960 }, 3_000)),
      exportPage: sqlOf(saleExportPageSql(set.where, { at: '2026-03-15 10:00:00.123456+00', id: 77 }, 1_000)),
    }).toMatchSnapshot();
  });

  it('reads no page past the end of the set', () => {
    expect(salesPageSql(undefined, { limit: 20, offset: 40 }, 40)).toBeUndefined();
  });
});
