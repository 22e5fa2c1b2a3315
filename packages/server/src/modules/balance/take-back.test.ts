import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import type { MoneyResult, Transaction } from '@lot/domain/schemas/balance';
import type { DayClose } from '@lot/domain/schemas/reports';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import {
  balanceOf,
  books,
  cents,
  createMoneyTestApp,
  expectRefused,
  expectStatus,
  fund,
  money,
} from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';
import { checkLedger } from './ledger.ts';

/**
 * Taking money back (docs/product/money.md#take-back): the admin from anyone, a super agent or an
 * agent from its scope, with a reason, into the taker's balance, never more than the balance.
 */

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t?.close());

const takeBack = (by: Member, payload: Record<string, unknown>, key?: string) =>
  money(t, by.token, 'take-back', payload, key);

describe(`take back (${TEST_DB})`, () => {
  it('moves the amount from the account to the one who takes it back, with the reason on the ledger row', async () => {
    await fund(t, h.U1.id, '100.00');
    const agentBefore = await balanceOf(t, h.A1.id);
    const userBefore = await balanceOf(t, h.U1.id);
    const response = await takeBack(h.A1, { userId: h.U1.id, amount: '30.25', reason: 'Shop closed for the week' });
    expectStatus(response, 200);
    const result = response.json<MoneyResult>();
    expect(result.message).toBe('Funds successfully taken back from User One');
    expect(result.transaction).toMatchObject({
      type: 'takeback',
      userId: h.U1.id,
      receiverId: h.A1.id,
      amount: '30.25',
      status: 'completed',
      description: 'Shop closed for the week',
      user: { id: h.U1.id, username: 'user_one' },
      receiver: { id: h.A1.id, username: 'agent_one' },
    });
    expect(result.balance).toEqual({ userId: h.U1.id, amount: '69.75' });
    expect(await balanceOf(t, h.U1.id)).toBe(userBefore - 3025);
    expect(await balanceOf(t, h.A1.id)).toBe(agentBefore + 3025);
    expect((await checkLedger(t.database.db)).ok).toBe(true);

    // Both parties see the row: received by the agent, sent by the user.
    const received = await t.request(h.A1.token, { method: 'GET', url: '/api/transactions?direction=received' });
    expect(received.json<Transaction[]>().map((row) => row.id)).toContain(result.transaction.id);
    const sent = await t.request(h.U1.token, { method: 'GET', url: '/api/transactions?direction=sent' });
    expect(sent.json<Transaction[]>().map((row) => row.id)).toContain(result.transaction.id);
  });

  it('takes back within scope for every role that may, and the whole balance at most', async () => {
    await fund(t, h.U3.id, '50.00');
    await fund(t, h.A2.id, '20.00');
    // A super agent from a user under its agent and from its agent; the admin from a super agent.
    expectStatus(await takeBack(h.S1, { userId: h.U3.id, amount: '50.00', reason: 'Recall' }), 200);
    expect(await balanceOf(t, h.U3.id)).toBe(0);
    expectStatus(await takeBack(h.S1, { userId: h.A2.id, amount: 20, reason: 'Recall' }), 200);
    const superBalance = await balanceOf(t, h.S1.id);
    expect(superBalance).toBe(7000);
    const adminBefore = await balanceOf(t, h.admin.id);
    expectStatus(await takeBack(h.admin, { userId: h.S1.id, amount: '70.00', reason: 'Audit' }), 200);
    expect(await balanceOf(t, h.S1.id)).toBe(0);
    expect(await balanceOf(t, h.admin.id)).toBe(adminBefore + 7000);
    // An inactive account's money may be taken back (U6 is inactive, under A1).
    await fund(t, h.U6.id, '5.00');
    expectStatus(await takeBack(h.A1, { userId: h.U6.id, amount: '5.00', reason: 'Closed shop' }), 200);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('never takes more than the balance and says so', async () => {
    await fund(t, h.U2.id, '10.00');
    const response = await expectRefused(
      t,
      () => takeBack(h.A1, { userId: h.U2.id, amount: '10.01', reason: 'Too much' }),
      422,
      {
        message: MESSAGES.takeBackAboveBalance,
        fieldErrors: { amount: MESSAGES.takeBackAboveBalance },
      },
    );
    expect(response.json<{ message: string }>().message).toBe('You cannot take back more than the balance');
    expect(await balanceOf(t, h.U2.id)).toBe(1000);
  });

  it('needs a reason, a valid amount and someone else', async () => {
    await fund(t, h.U2.id, '10.00');
    for (const reason of [undefined, '', '   ']) {
      await expectRefused(
        t,
        () => takeBack(h.A1, { userId: h.U2.id, amount: '1.00', ...(reason !== undefined && { reason }) }),
        400,
        { fieldErrors: { reason: 'A reason is required' } },
      );
    }
    await expectRefused(t, () => takeBack(h.A1, { userId: h.U2.id, amount: '1.00', reason: 'x'.repeat(201) }), 400, {
      fieldErrors: { reason: 'Reason must be at most 200 characters' },
    });
    await expectRefused(t, () => takeBack(h.A1, { userId: h.U2.id, amount: '0', reason: 'Zero' }), 400, {
      fieldErrors: { amount: MESSAGES.amountInvalid },
    });
    await expectRefused(t, () => takeBack(h.A1, { userId: h.A1.id, amount: '1.00', reason: 'Me' }), 400, {
      fieldErrors: { userId: 'You cannot take back from yourself' },
    });
  });

  it('outside the scope is not found, and a user may not take back at all', async () => {
    await fund(t, h.U5.id, '10.00');
    await fund(t, h.U1.id, '10.00');
    // Another super agent's user, a sibling agent's user, the upline, a sibling agent.
    const refusals: [Member, Member][] = [
      [h.S1, h.U5],
      [h.A1, h.U3],
      [h.A1, h.S1],
      [h.A1, h.A2],
      [h.S1, h.S2],
      [h.S1, h.admin],
      [h.A3, h.U1],
    ];
    for (const [by, of] of refusals) {
      await expectRefused(t, () => takeBack(by, { userId: of.id, amount: '1.00', reason: 'Outside' }), 404, {
        message: 'User not found',
      });
    }
    // A user may not take back, from anyone, even without a reason (the role comes first).
    await expectRefused(t, () => takeBack(h.U1, { userId: h.U2.id, amount: '1.00', reason: 'Mine' }), 403);
    await expectRefused(t, () => takeBack(h.U1, { userId: h.U2.id, amount: '1.00' }), 403);
  });

  it('the same Idempotency-Key takes back once', async () => {
    await fund(t, h.U4.id, '10.00');
    const before = await balanceOf(t, h.U4.id);
    const body = { userId: h.U4.id, amount: '4.00', reason: 'Once' };
    const first = await takeBack(h.S1, body, 'take-back-once');
    expectStatus(first, 200);
    const again = await takeBack(h.S1, body, 'take-back-once');
    expectStatus(again, 200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(t, h.U4.id)).toBe(before - 400);
    await expectRefused(t, () => takeBack(h.S1, { ...body, amount: '5.00' }, 'take-back-once'), 422);
  });

  it('concurrent take-backs and spending never overdraw the account', async () => {
    await fund(t, h.U2.id, '100.00');
    const start = await balanceOf(t, h.U2.id);
    const booksBefore = await books(t);
    // The agent, the super agent and the admin each take 15.00 back eight times, while the user spends.
    const calls = [h.A1, h.S1, h.admin].flatMap((by) =>
      Array.from({ length: 8 }, () => takeBack(by, { userId: h.U2.id, amount: '15.00', reason: 'Race' })),
    );
    calls.push(
      ...Array.from({ length: 4 }, () => money(t, h.U2.token, 'transfer', { receiverId: h.U1.id, amount: '7.00' })),
    );
    const responses = await Promise.all(calls);
    for (const response of responses) expect([200, 422], response.body).toContain(response.statusCode);
    const moved = responses
      .filter((response) => response.statusCode === 200)
      .reduce((sum, response) => sum + cents(response.json<MoneyResult>().transaction.amount), 0);
    expect(moved).toBeLessThanOrEqual(start);
    const end = await balanceOf(t, h.U2.id);
    expect(end).toBe(start - moved);
    expect(end).toBeGreaterThanOrEqual(0);
    // Every refusal is the right one: at its moment the balance did not cover it.
    expect(responses.filter((response) => response.statusCode === 422).length).toBeGreaterThan(0);
    const after = await books(t);
    expect(after.transactions - booksBefore.transactions).toBe(
      responses.filter((response) => response.statusCode === 200).length,
    );
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it("the shop's day close shows what was taken back, and still adds up", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await t.request(h.A1.token, {
      method: 'GET',
      url: `/api/reports/day-close?date=${today}&userId=${h.U1.id}`,
    });
    expectStatus(response, 200);
    const close = response.json<DayClose>();
    expect(cents(close.movements.takenBack)).toBeGreaterThanOrEqual(3025);
    expect(cents(close.closingBalance)).toBe(await balanceOf(t, h.U1.id));
  });
});
