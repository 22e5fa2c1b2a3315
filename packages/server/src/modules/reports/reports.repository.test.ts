import { describe, expect, it } from 'vitest';
import { callers, sqlOf } from '../../test/sql-snapshots.ts';
import { activityStatements, dayCloseStatement, downlineStatement, type Node } from './reports.repository.ts';
import { statementMovementsStatement, statementTotalsStatement } from './statements.repository.ts';

/**
 * The SQL of each report (the day close, the downline report per role of its node, the activity
 * report per caller, an account's statement), so that a change to a statement shows as a diff of
 * its snapshot. The exports read the same statements (the downline export its report, a statement's
 * export the statement a page at a time).
 */

const { admin, superagent, agent, user } = callers;
const period = { from: '2026-03-01', to: '2026-03-31', timeZone: 'Europe/Madrid' };

describe('the SQL of the reports', () => {
  it('the day close of a shop', () => {
    expect(sqlOf(dayCloseStatement(user.id, '2026-03-14', 'America/Mexico_City'))).toMatchSnapshot();
  });

  const nodes: Node[] = [
    { ...admin, role: 'admin' },
    { ...superagent, role: 'superagent' },
    { ...agent, role: 'agent' },
  ];
  it.each(nodes)('the downline report of a node: $role', (node) => {
    expect(sqlOf(downlineStatement(node, period))).toMatchSnapshot();
  });

  it.each(Object.values(callers))('the activity report of a caller: $role', (caller) => {
    const statements = activityStatements(caller, {
      firstDay: '2026-03-01',
      lastDay: '2026-03-30',
      previousFirstDay: '2026-01-30',
      timeZone: 'UTC',
    });
    expect({
      days: sqlOf(statements.days),
      bounds: sqlOf(statements.bounds),
      accounts: sqlOf(statements.accounts),
      flagged: sqlOf(statements.flagged),
    }).toMatchSnapshot();
  });

  it("an account's statement: its totals and a page of movements (also an export's page)", () => {
    expect({
      totals: sqlOf(statementTotalsStatement(user.id, period)),
      page: sqlOf(statementMovementsStatement(user.id, period, { limit: 1_000, offset: 2_000 })),
    }).toMatchSnapshot();
  });
});
