import { describe, expect, it } from 'vitest';
import type { Caller } from '../../lib/caller.ts';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import { accountReach, receiverReach } from './balance.access.ts';
import { LEDGER_MISMATCHES, LEDGER_TOTALS, moveStatement, type Move } from './balance.repository.ts';
import { claimOf, idempotencyKeyQuery } from '../../lib/idempotency.ts';
import { transferMove } from './balance.service.ts';

/**
 * The SQL of each money call (decisions 012, 024: one statement, keyed or not), the key a replay
 * reads, and the ledger check's sums, so that a change to a statement shows as a diff of its
 * snapshot. The moves are built as the service builds them.
 */

const { admin, superagent, agent, user } = callers;
const party = (caller: Caller) => ({ id: caller.id, username: caller.username, fullName: caller.fullName });

const topup: Move = {
  target: 7,
  reach: accountReach(admin),
  activeTarget: false,
  deltas: [[7, 5_000]],
  entry: { type: 'topup', userId: admin.id, receiverId: 7, actorId: admin.id, amount: 5_000, description: null },
  balanceOf: 7,
  said: { message: 'Funds successfully topped up to ', named: true, sender: party(admin), receiver: 'target' },
  audit: { action: 'money.topup', address: '203.0.113.9' },
};

const decrease: Move = {
  target: 7,
  reach: accountReach(admin),
  activeTarget: false,
  deltas: [[7, -250]],
  entry: { type: 'decrease', userId: 7, receiverId: null, actorId: admin.id, amount: 250, description: 'Typo' },
  balanceOf: 7,
  said: { message: 'Balance decreased successfully', named: false, sender: 'target', receiver: null },
  audit: { action: 'money.correction', address: null },
};

const takeBack = (caller: Caller): Move => ({
  target: 7,
  reach: accountReach(caller),
  activeTarget: false,
  insufficientMessage: 'You cannot take back more than the balance',
  deltas: [
    [7, -300],
    [caller.id, 300],
  ],
  entry: { type: 'takeback', userId: 7, receiverId: caller.id, actorId: caller.id, amount: 300, description: 'Closed' },
  balanceOf: 7,
  said: { message: 'Funds successfully taken back from ', named: true, sender: 'target', receiver: party(caller) },
  audit: { action: 'money.takeback', address: null },
});

const moves: [string, Move][] = [
  ['a top-up by the admin', topup],
  ['a correction by the admin', decrease],
  ['a transfer by a super agent', transferMove(superagent, { receiverId: 7, amount: 1_000 })],
  ['a transfer by an agent', transferMove(agent, { receiverId: 7, amount: 1_000 })],
  ['a transfer by a user (to any active user)', transferMove(user, { receiverId: 7, amount: 1_000 })],
  ['a take-back by an agent', takeBack(agent)],
  ['a take-back by the admin', takeBack(admin)],
  ['a take-back from the drawer by an agent (decision 091)', { ...takeBack(agent), drawer: { takenBy: 'Agent' } }],
];

describe('the SQL of each money call', () => {
  it.each(moves)('%s, without a key and with one', (_, move) => {
    const claim = claimOf(move.entry.actorId, 'key-1', { op: 'snapshot' });
    expect({ plain: sqlOf(moveStatement(move)), keyed: sqlOf(moveStatement(move, claim)) }).toMatchSnapshot();
  });

  it("a replay's stored answer", () => {
    expect(sqlOf(idempotencyKeyQuery(sqlOnly, user.id, 'key-1'))).toMatchSnapshot();
  });

  it('the reach of each role', () => {
    expect(
      Object.fromEntries(
        Object.values(callers).map((caller) => [
          caller.role,
          { account: sqlOf(accountReach(caller)), receiver: sqlOf(receiverReach(caller)) },
        ]),
      ),
    ).toMatchSnapshot();
  });
});

describe('the SQL of the ledger check', () => {
  it('balances against their ledger rows', () => {
    expect(sqlOf(LEDGER_MISMATCHES)).toMatchSnapshot();
  });

  it('the totals, held pools and daily rollups', () => {
    expect(sqlOf(LEDGER_TOTALS)).toMatchSnapshot();
  });
});
