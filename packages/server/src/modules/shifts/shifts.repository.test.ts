import { describe, expect, it } from 'vitest';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import { shiftsAccess } from './shifts.access.ts';
import {
  insertMovementSql,
  insertShiftSql,
  nextZNumberSql,
  shiftReportSql,
  shiftsWhere,
  type ShiftFilter,
} from './shifts.repository.ts';
import { shifts } from '../../db/schema.ts';

/**
 * The condition each shifts list (and export, and the summary) reads through, per caller and
 * filter: the hierarchy recorded with the shift (decision 039), so a change shows as a diff.
 */

const FILTERS: [string, ShiftFilter][] = [
  ['all', { status: 'all' }],
  ['open of one shop', { status: 'open', userId: 9 }],
  [
    'closed between two instants',
    { status: 'closed', from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') },
  ],
];

describe('shifts list conditions', () => {
  for (const [role, caller] of Object.entries(callers))
    for (const [label, filter] of FILTERS)
      it(`${role}, ${label}`, () => {
        const where = shiftsWhere(shiftsAccess.read(caller), filter);
        expect(sqlOf(sqlOnly.select({ id: shifts.id }).from(shifts).where(where))).toMatchSnapshot();
      });
});

/**
 * The statements behind a shift's money (decision 039): the open that records its hierarchy, the
 * X/Z report's five reads (games, prizes paid, prizes unpaid, take-backs, cash movements), the
 * movement statement (decision 091) and the Z counter.
 */
describe('shift statements', () => {
  it('opens a shift', () => {
    expect(sqlOf(insertShiftSql(4, 10_000))).toMatchSnapshot();
  });

  it("reads a shift's report", () => {
    const statements = shiftReportSql(
      { id: 7, userId: 4, openedAt: new Date('2026-03-01T08:00:00Z') },
      new Date('2026-03-01T20:00:00Z'),
    );
    expect(Object.fromEntries(Object.entries(statements).map(([name, sql]) => [name, sqlOf(sql)]))).toMatchSnapshot();
  });

  it('records a cash movement, keyed and not', () => {
    const movement = {
      shiftId: 7,
      kind: 'paid_out' as const,
      amount: 1_250,
      reason: 'Cleaning supplies',
      takenBy: null,
      recordedBy: 4,
      address: '127.0.0.1',
    };
    expect(sqlOf(insertMovementSql({ ...movement, claim: undefined }))).toMatchSnapshot();
    expect(
      sqlOf(insertMovementSql({ ...movement, claim: { userId: 4, key: 'k-1', requestHash: 'abc' } })),
    ).toMatchSnapshot();
  });

  it('takes the next Z number', () => {
    expect(sqlOf(nextZNumberSql(4))).toMatchSnapshot();
  });
});
