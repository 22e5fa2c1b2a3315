import { describe, expect, it } from 'vitest';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import { shiftsAccess } from './shifts.access.ts';
import { shiftsWhere, type ShiftFilter } from './shifts.repository.ts';
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
