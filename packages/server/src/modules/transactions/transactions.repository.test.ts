import { describe, expect, it } from 'vitest';
import type { Caller } from '../../lib/caller.ts';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import {
  transactionExportPageStatement,
  transactionsPageQuery,
  transactionsWhere,
  transactionTotalsQuery,
  type TransactionsFilter,
} from './transactions.repository.ts';

/**
 * The SQL of the transactions list per caller and filter, so that a change to a query shows as a
 * diff of its snapshot: the whole set's totals (count, volume, money in and out), a page, and an
 * export's first and next keyset pages.
 */

const { admin, superagent, agent, user } = callers;

const lists: [string, Caller, TransactionsFilter][] = [
  ['admin, everything', admin, {}],
  ['admin, a type searched', admin, { type: 'transfer', search: '50%_off' }],
  ['superagent, received', superagent, { direction: 'received' }],
  [
    'agent, sent in a period',
    agent,
    { direction: 'sent', from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z' },
  ],
  ['user, everything', user, {}],
  ['user, games searched', user, { type: 'game', search: 'corner' }],
];

describe('the SQL of each transactions list', () => {
  it.each(lists)('%s', (_, caller, filter) => {
    const where = transactionsWhere(caller, filter);
    expect({
      totals: sqlOf(transactionTotalsQuery(sqlOnly, caller.id, where)),
      page: sqlOf(transactionsPageQuery(sqlOnly, where, { limit: 20, offset: 40 })),
      exportFirstPage: sqlOf(transactionExportPageStatement(where, undefined, 1_000)),
      exportNextPage: sqlOf(
        transactionExportPageStatement(where, { at: '2026-03-02 10:00:00.123456+00', id: 812 }, 1_000),
      ),
    }).toMatchSnapshot();
  });
});
