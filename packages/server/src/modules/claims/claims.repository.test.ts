import { describe, expect, it } from 'vitest';
import { callers, sqlOf } from '../../test/sql-snapshots.ts';
import { mayPaySql, payableShops, readable } from './claims.access.ts';
import { approveClaimSql, payClaimSql, type PayClaimInput } from './claim-payment.repository.ts';
import { EXPIRE_DUE, extendClaimSql, markBeforeClaimsPaidSql } from './claims.repository.ts';

/**
 * The claims' hand-written money statements (decision 038): paying a prize (with and without an
 * Idempotency-Key, by a shop with and without an agent), the expiry sweep and an admin's extension,
 * and the conditions of who may read and pay, so that a change to any shows as a diff.
 */

const shop = callers.user;
const shopUnderAgent = { ...callers.user, id: 5, parentId: callers.agent.id };
const pay = (caller: typeof shop, claim?: PayClaimInput['claim']): PayClaimInput => ({
  winnerId: 42,
  mayPay: mayPaySql(caller),
  payerId: caller.id,
  address: '203.0.113.7',
  entryCode: '0123456789abcdef',
  claimerName: 'Ana Lopez',
  claimerIdNumber: null,
  claim,
});

describe('the SQL of the claims statements', () => {
  it('pays a prize: a shop without an agent, no key', () => {
    expect(sqlOf(payClaimSql(pay(shop)))).toMatchSnapshot();
  });

  it('pays a prize: a shop under an agent, with an Idempotency-Key', () => {
    const claim = { userId: shopUnderAgent.id, key: 'key-1', requestHash: 'hash-1' };
    expect(sqlOf(payClaimSql(pay(shopUnderAgent, claim)))).toMatchSnapshot();
  });

  it('expires the due claims', () => {
    expect(sqlOf(EXPIRE_DUE)).toMatchSnapshot();
  });

  it('extends a claim', () => {
    const input = { winnerId: 42, days: 7, reason: 'Customer in hospital', actorId: 1, address: null };
    expect(sqlOf(extendClaimSql(input))).toMatchSnapshot();
  });

  it('approves paying a prize without an entry code (decision 086)', () => {
    const input = { winnerId: 42, claimerIdNumber: 'X-1234567', reason: 'Old slip', actorId: 1, address: null };
    expect(sqlOf(approveClaimSql(input))).toMatchSnapshot();
  });

  it('marks the prizes from before claims paid (decision 060)', () => {
    expect(sqlOf(markBeforeClaimsPaidSql({ actorId: 1, address: '203.0.113.7' }))).toMatchSnapshot();
  });

  it.each(Object.entries(callers))('who %s may read and pay', (_, caller) => {
    expect({
      lists: sqlOf(readable(caller, false)),
      receipts: sqlOf(readable(caller, true)),
      payableShops: sqlOf(payableShops(caller, 'shop')),
      mayPay: sqlOf(mayPaySql(caller)),
    }).toMatchSnapshot();
  });
});
