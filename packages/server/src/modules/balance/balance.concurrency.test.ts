import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { queryRows } from '../../db/client.ts';
import {
  balanceOf,
  books,
  cents,
  createMoneyTestApp,
  expectStatus,
  fund,
  money,
  seededRandom,
} from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { checkLedger } from './ledger.ts';

/**
 * docs/product/money.md#locking under load: balance rows are locked in id order, so concurrent calls
 * never overdraw, never lose an update and never deadlock, and the books always balance.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createMoneyTestApp();
});
afterAll(() => t?.close());

type Account = { id: number; username: string; token: string };

let made = 0;
/** Users of role user (no parent), created by the admin, with a token; `inactive` ones get none. */
async function accounts(count: number, status: 'active' | 'inactive' = 'active'): Promise<Account[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      made += 1;
      const username = `storm_${made}`;
      const response = await t.request(t.adminToken, {
        method: 'POST',
        url: '/api/users',
        payload: { username, password: 'storm-password', fullName: `Storm ${made}`, role: 'user', status },
      });
      expectStatus(response, 201);
      const id = response.json<{ id: number }>().id;
      // The token sign-in would issue, minus the Argon2 check per account (the auth suites prove sign-in).
      return {
        id,
        username,
        token: status === 'active' ? await t.app.context.tokens.openSession({ id, tokenVersion: 0 }) : '',
      };
    }),
  );
}

const transfer = (from: Account, to: Account, amount: string, key?: string) =>
  money(t, from.token, 'transfer', { receiverId: to.id, amount }, key);

function statuses(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

async function expectBooksBalance() {
  const report = await checkLedger(t.database.db);
  expect(report, JSON.stringify(report)).toMatchObject({ ok: true, mismatches: [], negative: 0 });
  expect(report.totals.balances).toBe(report.totals.expected);
}

describe('concurrent transfers against one balance', () => {
  it.each([1, 2, 3, 4, 5])(
    'round %i: 100.00 hit by 20 concurrent transfers of 10.00 → 10 succeed, 10 are Insufficient balance',
    async () => {
      const [sender, receiver] = await accounts(2);
      if (!sender || !receiver) throw new Error('no accounts');
      await fund(t, sender.id, '100.00');
      const responses = await Promise.all(Array.from({ length: 20 }, () => transfer(sender, receiver, '10.00')));

      expect(statuses(responses)).toEqual({ 200: 10, 422: 10 });
      const balancesSeen: number[] = [];
      for (const response of responses) {
        if (response.statusCode === 422) {
          expect(response.json()).toEqual({
            message: MESSAGES.insufficientBalance,
            code: 'UNPROCESSABLE',
            fieldErrors: { amount: MESSAGES.insufficientBalance },
            requestId: expect.any(String),
          });
          continue;
        }
        const body = response.json<MoneyResult>();
        expect(body.balance.userId).toBe(sender.id);
        balancesSeen.push(cents(body.balance.amount));
      }
      // Each success saw the sender's balance after exactly its own debit: 90.00, 80.00 … 0.00.
      expect(balancesSeen.sort((a, b) => b - a)).toEqual(Array.from({ length: 10 }, (_, i) => 9000 - i * 1000));
      expect(await balanceOf(t, sender.id)).toBe(0);
      expect(await balanceOf(t, receiver.id)).toBe(10_000);
      const [sent] = await queryRows<{ count: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS count FROM transactions WHERE type = 'transfer' AND user_id = ${sender.id}`,
      );
      expect(Number(sent?.count)).toBe(10);
      await expectBooksBalance();
    },
  );

  it("transfers and the admin's corrections racing for the same 100.00: exactly 10 of 30 succeed", async () => {
    const [owner, receiver] = await accounts(2);
    if (!owner || !receiver) throw new Error('no accounts');
    await fund(t, owner.id, '100.00');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? transfer(owner, receiver, '10.00')
          : money(t, t.adminToken, 'decrease', { userId: owner.id, amount: '10.00', description: 'Correction' }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 10, 422: 20 });
    expect(await balanceOf(t, owner.id)).toBe(0);
    await expectBooksBalance();
  });

  it('opposite transfers between two accounts at once neither deadlock nor lose money', async () => {
    const [a, b] = await accounts(2);
    if (!a || !b) throw new Error('no accounts');
    await fund(t, a.id, '50.00');
    await fund(t, b.id, '50.00');
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? transfer(a, b, '1.00') : transfer(b, a, '1.00'))),
    );
    expect(statuses(responses)).toEqual({ 200: 40 });
    expect(await balanceOf(t, a.id)).toBe(5000);
    expect(await balanceOf(t, b.id)).toBe(5000);
    await expectBooksBalance();
  });

  it('20 concurrent top-ups of one account all count', async () => {
    const [account] = await accounts(1);
    if (!account) throw new Error('no account');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => money(t, t.adminToken, 'topup', { userId: account.id, amount: '1.01' })),
    );
    expect(statuses(responses)).toEqual({ 200: 20 });
    expect(await balanceOf(t, account.id)).toBe(2020);
  });
});

describe('money arriving while it is spent', () => {
  it('debits that only the money arriving at that moment covers succeed or are refused, never a 500', async () => {
    // Each transfer starts while the top-up may still hold the sender's row: it waits, then must
    // judge and debit the balance the top-up left, not the one its statement first saw (0.00).
    for (let round = 0; round < 8; round += 1) {
      const [sender, receiver] = await accounts(2);
      if (!sender || !receiver) throw new Error('no accounts');
      const [topup, ...responses] = await Promise.all([
        money(t, t.adminToken, 'topup', { userId: sender.id, amount: '100.00' }),
        ...Array.from({ length: 12 }, () => transfer(sender, receiver, '10.00')),
      ]);
      if (!topup) throw new Error('no top-up');
      expectStatus(topup, 200);
      const counts = statuses(responses);
      expect(Object.keys(counts).filter((status) => status !== '200' && status !== '422')).toEqual([]);
      const succeeded = counts[200] ?? 0;
      expect(await balanceOf(t, sender.id)).toBe(10_000 - succeeded * 1000);
      expect(await balanceOf(t, receiver.id)).toBe(succeeded * 1000);
    }
    await expectBooksBalance();
  });
});

describe('a storm of random transfers', () => {
  it('~300 concurrent transfers among 30 accounts keep every balance exact and the books balanced', async () => {
    const seed = Number(process.env.STORM_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seededRandom(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
    const amount = (max: number) => formatCents(1 + Math.floor(random() * max));
    const context = `STORM_SEED=${seed}`;

    const people = await accounts(30);
    const [dormant] = await accounts(1, 'inactive');
    if (!dormant) throw new Error('no inactive account');
    const expected = new Map<number, number>(people.map((person) => [person.id, 0]));
    const add = (id: number, delta: number) => expected.set(id, (expected.get(id) ?? 0) + delta);
    const before = await checkLedger(t.database.db);
    let toppedUp = 0;
    let topupRows = 0;

    // Funding: between 0.00 and 100.00 each; a few get nothing, so their transfers must fail.
    await Promise.all(
      people.map(async (person, i) => {
        if (i % 7 === 0) return;
        const body = await fund(t, person.id, amount(10_000));
        toppedUp += cents(body.transaction.amount);
        topupRows += 1;
        add(person.id, cents(body.transaction.amount));
      }),
    );

    type Planned = { from: Account; to: Account; amount: string; expect: number[] };
    const counts: Record<number, number> = {};
    let succeeded = 0;
    for (let batch = 0; batch < 10; batch += 1) {
      const planned: Planned[] = Array.from({ length: 30 }, () => {
        const from = pick(people);
        const roll = random();
        // Mostly plain transfers that may or may not be covered; a few that must fail outright.
        if (roll < 0.03) return { from, to: from, amount: amount(1000), expect: [400] };
        if (roll < 0.06) return { from, to: { ...dormant }, amount: amount(1000), expect: [404] };
        const to = pick(people.filter((person) => person.id !== from.id));
        return { from, to, amount: amount(roll < 0.2 ? 20_000 : 3_000), expect: [200, 422] };
      });
      const topups = Array.from({ length: 3 }, () => ({ to: pick(people), amount: amount(2_000) }));
      const [responses, topupResponses] = await Promise.all([
        Promise.all(planned.map((call) => transfer(call.from, call.to, call.amount))),
        Promise.all(topups.map((call) => money(t, t.adminToken, 'topup', { userId: call.to.id, amount: call.amount }))),
      ]);

      responses.forEach((response, i) => {
        const call = planned[i] as Planned;
        counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
        expect(call.expect, `${context} ${response.statusCode} ${response.body}`).toContain(response.statusCode);
        if (response.statusCode === 422)
          expect(response.json()).toMatchObject({ message: MESSAGES.insufficientBalance });
        if (response.statusCode !== 200) return;
        const body = response.json<MoneyResult>();
        expect(body.transaction).toMatchObject({ userId: call.from.id, receiverId: call.to.id, amount: call.amount });
        expect(cents(body.balance.amount)).toBeGreaterThanOrEqual(0);
        add(call.from.id, -cents(call.amount));
        add(call.to.id, cents(call.amount));
        succeeded += 1;
      });
      topupResponses.forEach((response, i) => {
        expectStatus(response, 200);
        const call = topups[i] as (typeof topups)[number];
        toppedUp += cents(call.amount);
        topupRows += 1;
        add(call.to.id, cents(call.amount));
      });
    }

    // Both outcomes happened, so the storm did test the balance check.
    expect(counts[200] ?? 0, context).toBeGreaterThan(30);
    expect(counts[422] ?? 0, context).toBeGreaterThan(10);

    const report = await checkLedger(t.database.db);
    expect(report.ok, `${context} ${JSON.stringify(report)}`).toBe(true);
    expect(report.negative).toBe(0);
    expect(cents(report.totals.balances)).toBe(cents(before.totals.balances) + toppedUp);
    expect(cents(report.totals.topups)).toBe(cents(before.totals.topups) + toppedUp);
    // One ledger row per successful call, none for a refused one.
    expect(report.transactions).toBe(before.transactions + topupRows + succeeded);

    const stored = (await books(t)).balances;
    let sum = 0;
    for (const person of people) {
      const balance = stored[person.id] ?? -1;
      expect(balance, `${context} user ${person.id}`).toBe(expected.get(person.id));
      expect(balance).toBeGreaterThanOrEqual(0);
      sum += balance;
      const api = await t.request(t.adminToken, { method: 'GET', url: `/api/balance/${person.id}` });
      expect(api.json()).toEqual({ userId: person.id, amount: formatCents(balance) });
    }
    // Transfers only move money: together the accounts hold exactly what was topped up.
    expect(sum).toBe(toppedUp);
    expect(await balanceOf(t, dormant.id)).toBe(0);
  });
});
