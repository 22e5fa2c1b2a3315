import { describe, expect, it } from 'vitest';
import { auditInsert } from '../../lib/audit.ts';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import {
  auditHeadsStatement,
  auditPageStatement,
  auditWhere,
  checkpointChainStatesStatement,
  checkpointLedgerStatement,
  checkpointStateStatement,
  insertCheckpointStatement,
  ledgerAuditStatement,
  type AuditFilter,
} from './audit.repository.ts';
import { claimsAuditStatement, shiftsAuditStatement } from './claims-shifts-audit.repository.ts';
import { auditLog } from '../../db/schema.ts';

/**
 * The audit trail's hand-written statements (decisions 029, 044, 045) and the condition its list
 * reads through per caller, so that a change to any of them shows as a diff.
 */

describe('audit chain statements', () => {
  it('appends a row (the trigger chains it)', () => {
    expect(
      sqlOf(
        auditInsert(sqlOnly, {
          actorId: 1,
          address: '127.0.0.1',
          action: 'money.topup',
          targetKind: 'transaction',
          targetId: 7,
          targetUserId: 4,
          details: { amount: '1.00' },
        }),
      ),
    ).toMatchSnapshot();
  });

  it('reads the chain heads', () => {
    expect(sqlOf(auditHeadsStatement())).toMatchSnapshot();
  });

  it('walks the chains a page at a time', () => {
    expect(sqlOf(auditPageStatement([-2_147_483_648, 0], 5_000))).toMatchSnapshot();
  });
});

describe('ledger and audit comparison', () => {
  it('compares both ways in one statement', () => {
    expect(sqlOf(ledgerAuditStatement(20))).toMatchSnapshot();
  });
});

describe('prize claims and shifts compared with the audit trail', () => {
  it('compares the paid claims with their claim.paid rows in one statement', () => {
    expect(sqlOf(claimsAuditStatement(20))).toMatchSnapshot();
  });

  it("compares the closed shifts with their shift.closed rows and each shop's Z numbers in one statement", () => {
    expect(sqlOf(shiftsAuditStatement(20))).toMatchSnapshot();
  });
});

describe('checkpoint statements', () => {
  it('reads every chain head, row count and the ledger extent', () => {
    expect(sqlOf(checkpointStateStatement())).toMatchSnapshot();
  });

  it('records a checkpoint', () => {
    expect(
      sqlOf(
        insertCheckpointStatement(
          { madeAt: '2026-03-01T00:00:00.000Z', digest: 'ab'.repeat(32), chains: 3, auditRows: 42 },
          '/backups/checkpoint.json',
        ),
      ),
    ).toMatchSnapshot();
  });

  it('compares the chains with a checkpoint', () => {
    expect(
      sqlOf(checkpointChainStatesStatement([{ chain: 0, seq: 5, hash: 'cd'.repeat(32), rows: 5 }])),
    ).toMatchSnapshot();
  });

  it('compares the ledger with a checkpoint', () => {
    expect(sqlOf(checkpointLedgerStatement(99))).toMatchSnapshot();
  });
});

const FILTERS: [string, AuditFilter][] = [
  ['all', {}],
  [
    'one action, a person named, between two instants',
    {
      action: 'money.topup',
      actor: 'sam',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-02T00:00:00.000Z',
    },
  ],
  ['a target id and a user', { target: '12', userId: 9 }],
];

describe('audit list conditions', () => {
  for (const [role, caller] of Object.entries(callers)) {
    if (role === 'user') continue; // refused by the service before any statement
    for (const [label, filter] of FILTERS)
      it(`${role}, ${label}`, () => {
        expect(
          sqlOf(sqlOnly.select({ id: auditLog.id }).from(auditLog).where(auditWhere(caller, filter))),
        ).toMatchSnapshot();
      });
  }
});
