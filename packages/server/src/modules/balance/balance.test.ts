import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
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
  type MoneyCall,
} from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/** docs/product/money.md and roles-and-scope.md for the balance calls: who may move money where, what is valid, replays. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t?.close());

type Key = keyof Hierarchy;
const ALL: Key[] = ['admin', 'S1', 'S2', 'A1', 'A2', 'A3', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6'];
const NO_SUCH_USER = 999_999;
const FORBIDDEN = { message: SERVER_MESSAGES.forbidden, code: 'FORBIDDEN', requestId: expect.any(String) };
const INSUFFICIENT = {
  message: MESSAGES.insufficientBalance,
  code: 'UNPROCESSABLE',
  fieldErrors: { amount: MESSAGES.insufficientBalance },
  requestId: expect.any(String),
};

const party = (member: Member) => ({ id: member.id, username: member.username, fullName: member.fullName });
const readBalance = (caller: Member, url: string) => t.request(caller.token, { method: 'GET', url });

describe('GET /api/balance and /api/balance/{userId}', () => {
  it('needs a token', async () => {
    expectStatus(await t.request(null, { method: 'GET', url: '/api/balance' }), 401);
    expectStatus(await t.request(null, { method: 'GET', url: `/api/balance/${h.U1.id}` }), 401);
  });

  it('answers the caller its own balance as a 2-decimal string', async () => {
    const before = await balanceOf(t, h.U4.id);
    await fund(t, h.U4.id, '12.5');
    const response = await readBalance(h.U4, '/api/balance');
    expectStatus(response, 200);
    expect(response.json()).toEqual({ userId: h.U4.id, amount: formatCents(before + 1250) });
    expect(response.json<{ amount: string }>().amount).toMatch(/\.50$/);
  });

  /** docs/product/roles-and-scope.md#scope: admin all, superagent and agent their scope, user self; else 404. */
  const SCOPE: Record<Exclude<Key, 'U6'>, Key[]> = {
    admin: ALL,
    S1: ['S1', 'A1', 'A2', 'U1', 'U2', 'U3', 'U4', 'U6'],
    S2: ['S2', 'A3', 'U5'],
    A1: ['A1', 'U1', 'U2', 'U6'],
    A2: ['A2', 'U3'],
    A3: ['A3', 'U5'],
    U1: ['U1'],
    U2: ['U2'],
    U3: ['U3'],
    U4: ['U4'],
    U5: ['U5'],
  };

  it.each(Object.keys(SCOPE) as (keyof typeof SCOPE)[])(
    '%s reads the balances in its scope and no other',
    async (key) => {
      const caller = h[key];
      for (const target of ALL) {
        const response = await readBalance(caller, `/api/balance/${h[target].id}`);
        if (SCOPE[key].includes(target)) {
          expectStatus(response, 200);
          expect(response.json()).toEqual({
            userId: h[target].id,
            amount: formatCents(await balanceOf(t, h[target].id)),
          });
        } else {
          expectStatus(response, 404);
          expect(response.json()).toEqual({
            message: 'User not found',
            code: 'NOT_FOUND',
            requestId: expect.any(String),
          });
        }
      }
      expectStatus(await readBalance(caller, `/api/balance/${NO_SUCH_USER}`), 404);
    },
  );

  it('refuses an id that is not an id', async () => {
    const response = await readBalance(h.admin, '/api/balance/abc');
    expectStatus(response, 400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('POST /api/balance/topup', () => {
  it('admin tops up a user: the answer carries the ledger row and the new balance', async () => {
    const before = await books(t);
    const response = await money(t, h.admin.token, 'topup', { userId: h.U1.id, amount: 50 });
    expectStatus(response, 200);
    const body = response.json<MoneyResult>();
    expect(body).toEqual({
      message: `Funds successfully topped up to ${h.U1.fullName}`,
      transaction: {
        id: expect.any(Number),
        type: 'topup',
        userId: h.admin.id,
        receiverId: h.U1.id,
        amount: '50.00',
        status: 'completed',
        description: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        user: party(h.admin),
        receiver: party(h.U1),
        gameCode: null,
        gameNumber: null,
      },
      balance: { userId: h.U1.id, amount: formatCents((before.balances[h.U1.id] ?? 0) + 5000) },
    });
    const after = await books(t);
    expect(after.balances).toEqual({ ...before.balances, [h.U1.id]: (before.balances[h.U1.id] ?? 0) + 5000 });
    expect(after.transactions).toBe(before.transactions + 1);
  });

  it.each(['S1', 'A1', 'U6', 'admin'] as const)('admin tops up %s (inactive users and itself too)', async (key) => {
    const before = await balanceOf(t, h[key].id);
    const body = await fund(t, h[key].id, '0.10');
    expect(body.balance).toEqual({ userId: h[key].id, amount: formatCents(before + 10) });
    expect(await balanceOf(t, h[key].id)).toBe(before + 10);
  });

  it('admin: an unknown user is 404 and nothing changes', async () => {
    await expectRefused(t, () => money(t, h.admin.token, 'topup', { userId: NO_SUCH_USER, amount: 5 }), 404, {
      code: 'NOT_FOUND',
    });
  });

  it.each(['S1', 'S2', 'A1', 'A3', 'U1', 'U5'] as const)('%s may not top up (403), not even itself', async (key) => {
    for (const target of [key, 'U1', 'U2'] as const) {
      await expectRefused(
        t,
        () => money(t, h[key].token, 'topup', { userId: h[target].id, amount: 5 }),
        403,
        FORBIDDEN,
      );
    }
  });
});

describe('POST /api/balance/transfer: who may send to whom', () => {
  /** Funds the sender, transfers, and checks the answer and that exactly the two balances moved. */
  async function expectTransfer(fromKey: Key, toKey: Key, amount = '1.25') {
    const from = h[fromKey];
    const to = h[toKey];
    await fund(t, from.id, amount);
    const before = await books(t);
    const response = await money(t, from.token, 'transfer', { receiverId: to.id, amount });
    expectStatus(response, 200);
    const moved = cents(amount);
    const senderBefore = before.balances[from.id] ?? 0;
    const receiverBefore = before.balances[to.id] ?? 0;
    expect(response.json()).toEqual({
      message: `Funds successfully transferred to ${to.fullName}`,
      transaction: {
        id: expect.any(Number),
        type: 'transfer',
        userId: from.id,
        receiverId: to.id,
        amount: formatCents(moved),
        status: 'completed',
        description: null,
        createdAt: expect.any(String),
        user: party(from),
        receiver: party(to),
        gameCode: null,
        gameNumber: null,
      },
      // The sender's new balance, not the receiver's.
      balance: { userId: from.id, amount: formatCents(senderBefore - moved) },
    });
    const after = await books(t);
    expect(after.balances).toEqual({
      ...before.balances,
      [from.id]: senderBefore - moved,
      [to.id]: receiverBefore + moved,
    });
    expect(after.transactions).toBe(before.transactions + 1);
  }

  /** Funds the sender so that only the rule under test can refuse, then expects a refusal that changes nothing. */
  async function expectTransferRefused(fromKey: Key, to: Key | number, status: number, message: string) {
    const from = h[fromKey];
    await fund(t, from.id, '5.00');
    const receiverId = typeof to === 'number' ? to : h[to].id;
    const response = await expectRefused(
      t,
      () => money(t, from.token, 'transfer', { receiverId, amount: '1.00' }),
      status,
    );
    expect(response.json()).toMatchObject({ message });
  }

  it.each([
    ['admin', 'S1'],
    ['admin', 'A3'],
    ['admin', 'U5'],
    ['S1', 'A1'],
    ['S1', 'A2'],
    ['S1', 'U1'],
    ['S1', 'U3'],
    ['S1', 'U4'],
    ['S2', 'A3'],
    ['S2', 'U5'],
    ['A1', 'U1'],
    ['A1', 'U2'],
    ['A3', 'U5'],
    ['U1', 'U2'],
    ['U1', 'U4'],
    ['U1', 'U5'],
    ['U5', 'U3'],
  ] as [Key, Key][])('%s → %s is allowed', (from, to) => expectTransfer(from, to));

  it.each([
    // a superagent: only its own tree
    ['S1', 'S2'],
    ['S1', 'A3'],
    ['S1', 'U5'],
    ['S1', 'admin'],
    ['S2', 'A1'],
    ['S2', 'U1'],
    // an agent: only its direct users
    ['A1', 'U3'],
    ['A1', 'U4'],
    ['A1', 'A2'],
    ['A1', 'S1'],
    ['A3', 'U1'],
    // a user: only other active users of role user
    ['U1', 'A1'],
    ['U1', 'S1'],
    ['U1', 'admin'],
    ['U1', 'U6'],
  ] as [Key, Key][])('%s → %s is out of reach: 404', (from, to) =>
    expectTransferRefused(from, to, 404, 'Receiver not found'),
  );

  it.each(['admin', 'S1', 'A1', 'U1'] as Key[])('%s → a user that does not exist: 404', (from) =>
    expectTransferRefused(from, NO_SUCH_USER, 404, 'Receiver not found'),
  );

  it.each([
    ['admin', 'U6'],
    ['S1', 'U6'],
    ['A1', 'U6'],
  ] as [Key, Key][])('%s → %s (inactive, in reach): 422', (from, to) =>
    expectTransferRefused(from, to, 422, 'The receiver is inactive'),
  );

  it.each(['admin', 'S1', 'A1', 'U1'] as Key[])('%s → itself: 400', async (key) => {
    await fund(t, h[key].id, '5.00');
    await expectRefused(t, () => money(t, h[key].token, 'transfer', { receiverId: h[key].id, amount: '1.00' }), 400, {
      code: 'VALIDATION_ERROR',
      fieldErrors: { receiverId: 'You cannot transfer funds to yourself' },
      requestId: expect.any(String),
    });
  });

  it.each(['admin', 'S1', 'A1', 'U1'] as Key[])(
    '%s: more than the balance is 422 Insufficient balance',
    async (key) => {
      const have = await balanceOf(t, h[key].id);
      const receiver = key === 'admin' || key === 'S1' || key === 'A1' ? h.U2 : h.U3;
      await expectRefused(
        t,
        () => money(t, h[key].token, 'transfer', { receiverId: receiver.id, amount: formatCents(have + 1) }),
        422,
        INSUFFICIENT,
      );
      // Exactly the whole balance is fine.
      const response = await money(t, h[key].token, 'transfer', { receiverId: receiver.id, amount: formatCents(have) });
      expectStatus(response, 200);
      expect(response.json<MoneyResult>().balance).toEqual({ userId: h[key].id, amount: '0.00' });
    },
  );
});

describe('POST /api/balance/decrease', () => {
  it.each(['S1', 'A1', 'U1'] as const)('the admin corrects %s, with a description', async (key) => {
    const member = h[key];
    await fund(t, member.id, '10.00');
    const before = await books(t);
    const have = before.balances[member.id] ?? 0;
    const description = 'Correction: top-up entered twice';
    const response = await money(t, h.admin.token, 'decrease', { userId: member.id, amount: '2.50', description });
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      message: 'Balance decreased successfully',
      transaction: {
        id: expect.any(Number),
        type: 'decrease',
        userId: member.id,
        receiverId: null,
        amount: '2.50',
        status: 'completed',
        description,
        createdAt: expect.any(String),
        user: party(member),
        receiver: null,
        gameCode: null,
        gameNumber: null,
      },
      balance: { userId: member.id, amount: formatCents(have - 250) },
    });
    const after = await books(t);
    expect(after.balances).toEqual({ ...before.balances, [member.id]: have - 250 });
    expect(after.transactions).toBe(before.transactions + 1);
  });

  it.each(['S1', 'U5', 'U6'] as const)('admin takes money from %s', async (key) => {
    await fund(t, h[key].id, '3.00');
    const have = await balanceOf(t, h[key].id);
    const response = await money(t, h.admin.token, 'decrease', {
      userId: h[key].id,
      amount: 3,
      description: 'Correction',
    });
    expectStatus(response, 200);
    expect(response.json<MoneyResult>().balance).toEqual({ userId: h[key].id, amount: formatCents(have - 300) });
    expect(response.json<MoneyResult>().transaction).toMatchObject({ userId: h[key].id, receiverId: null });
  });

  it('admin: an unknown user is 404', async () => {
    await expectRefused(
      t,
      () => money(t, h.admin.token, 'decrease', { userId: NO_SUCH_USER, amount: 1, description: 'Correction' }),
      404,
      {
        code: 'NOT_FOUND',
      },
    );
  });

  it.each([
    ['S1', 'S1'],
    ['S1', 'A1'],
    ['S1', 'U1'],
    ['S1', 'S2'],
    ['A1', 'A1'],
    ['A1', 'U1'],
    ['A1', 'U3'],
    ['U1', 'U1'],
    ['U1', 'U2'],
    ['U1', 'admin'],
  ] as [Key, Key][])('only the admin corrects: %s may not take money from %s (403)', async (from, to) => {
    await fund(t, h[to].id, '5.00');
    await expectRefused(
      t,
      () => money(t, h[from].token, 'decrease', { userId: h[to].id, amount: 1, description: 'Correction' }),
      403,
      FORBIDDEN,
    );
  });

  it('a non-admin naming an unknown id is 403 as well', async () => {
    await expectRefused(
      t,
      () => money(t, h.U1.token, 'decrease', { userId: NO_SUCH_USER, amount: 1, description: 'Correction' }),
      403,
      FORBIDDEN,
    );
  });

  it('a correction without a description is 400', async () => {
    await fund(t, h.U2.id, '1.00');
    for (const description of [undefined, '', '   ']) {
      await expectRefused(
        t,
        () => money(t, h.admin.token, 'decrease', { userId: h.U2.id, amount: '1.00', description }),
        400,
        { fieldErrors: { description: 'A description is required' } },
      );
    }
  });

  it('more than the balance is 422 Insufficient balance', async () => {
    const have = await balanceOf(t, h.U2.id);
    await expectRefused(
      t,
      () =>
        money(t, h.admin.token, 'decrease', {
          userId: h.U2.id,
          amount: formatCents(have + 1),
          description: 'Correction',
        }),
      422,
      INSUFFICIENT,
    );
  });
});

describe('amount validation (docs/product/money.md#amount-input)', () => {
  const MISSING = Symbol('missing');
  /** The body each call gets, around the amount under test (or none: the key is left out). */
  function bodyFor(call: MoneyCall, amount: unknown): Record<string, unknown> {
    const base: Record<string, unknown> =
      call === 'topup'
        ? { userId: h.U1.id }
        : call === 'transfer'
          ? { receiverId: h.U2.id }
          : { userId: h.U1.id, description: 'Correction' };
    return amount === MISSING ? base : { ...base, amount };
  }
  const tokenFor = (call: MoneyCall) => (call === 'transfer' ? h.U1.token : h.admin.token);

  const invalid: [string, unknown][] = [
    ['0', 0],
    ['-1', -1],
    ['"-1"', '-1'],
    ['"0.00"', '0.00'],
    ['"abc"', 'abc'],
    ['""', ''],
    ['"1e3"', '1e3'],
    ['true', true],
    ['null', null],
    ['{}', {}],
    ['[]', []],
    ['["5"]', ['5']],
    ['missing', MISSING],
  ];
  const tooLarge: [string, unknown][] = [
    ['1000000000.01', 1000000000.01],
    ['"1000000000.01"', '1000000000.01'],
    ['1e12', 1e12],
    ['"10000000000000"', '10000000000000'],
  ];
  // A plain number with a third decimal is told about the decimals, not that it is no amount.
  const tooPrecise: [string, unknown][] = [
    ['0.001', 0.001],
    ['"0.001"', '0.001'],
    ['"2.555"', '2.555'],
  ];
  const cases = (['topup', 'transfer', 'decrease'] as const).flatMap((call) => [
    ...invalid.map(([label, amount]) => [call, label, MESSAGES.amountInvalid, amount] as const),
    ...tooPrecise.map(([label, amount]) => [call, label, MESSAGES.amountDecimals, amount] as const),
    ...tooLarge.map(([label, amount]) => [call, label, MESSAGES.amountTooLarge, amount] as const),
  ]);

  beforeAll(async () => {
    // Enough money that only the amount itself can be refused.
    await fund(t, h.U1.id, '1000.00');
  });

  it.each(cases)('%s with amount %s: 400 "%s"', async (call, _label, message, amount) => {
    await expectRefused(t, () => money(t, tokenFor(call), call, bodyFor(call, amount)), 400, {
      message,
      code: 'VALIDATION_ERROR',
      fieldErrors: { amount: message },
      requestId: expect.any(String),
    });
  });

  it.each(['topup', 'transfer', 'decrease'] as const)('%s with the JSON number 1e309: 400, too large', async (call) => {
    const field = call === 'transfer' ? 'receiverId' : 'userId';
    const target = call === 'transfer' ? h.U2.id : h.U1.id;
    const raw = `{"${field}":${target},"amount":1e309}`;
    await expectRefused(t, () => money(t, tokenFor(call), call, raw), 400, {
      message: MESSAGES.amountTooLarge,
      fieldErrors: { amount: MESSAGES.amountTooLarge },
    });
  });

  it('topup accepts the smallest and the largest amount', async () => {
    const before = await balanceOf(t, h.U3.id);
    expect((await fund(t, h.U3.id, '0.01')).balance.amount).toBe(formatCents(before + 1));
    // The JSON number exactly as a client writes it, trailing zeros and all.
    const response = await money(t, h.admin.token, 'topup', `{"userId":${h.U3.id},"amount":1000000000.00}`);
    expectStatus(response, 200);
    expect(response.json<MoneyResult>().transaction.amount).toBe('1000000000.00');
    expect(await balanceOf(t, h.U3.id)).toBe(before + 1 + 100_000_000_000);
    // Back to a modest balance for the suites below.
    expectStatus(
      await money(t, h.admin.token, 'decrease', {
        userId: h.U3.id,
        amount: '1000000000.00',
        description: 'Correction',
      }),
      200,
    );
    expect(await balanceOf(t, h.U3.id)).toBe(before + 1);
  });

  it('transfer and decrease accept the smallest and the largest amount', async () => {
    await fund(t, h.U4.id, '1000000000.00');
    await fund(t, h.U4.id, '0.02');
    const sender = await balanceOf(t, h.U4.id);
    const receiver = await balanceOf(t, h.U5.id);
    expectStatus(await money(t, h.U4.token, 'transfer', { receiverId: h.U5.id, amount: '0.01' }), 200);
    expectStatus(await money(t, h.U4.token, 'transfer', { receiverId: h.U5.id, amount: '1000000000.00' }), 200);
    expect(await balanceOf(t, h.U4.id)).toBe(sender - 100_000_000_001);
    expect(await balanceOf(t, h.U5.id)).toBe(receiver + 100_000_000_001);
    expectStatus(
      await money(t, h.admin.token, 'decrease', { userId: h.U5.id, amount: '0.01', description: 'Correction' }),
      200,
    );
    const last = await money(t, h.admin.token, 'decrease', {
      userId: h.U5.id,
      amount: '1000000000.00',
      description: 'Correction',
    });
    expectStatus(last, 200);
    expect(last.json<MoneyResult>().transaction.amount).toBe('1000000000.00');
    expect(await balanceOf(t, h.U5.id)).toBe(receiver);
  });

  it.each([
    ['missing', {}],
    ['null', { receiverId: null }],
    ['empty', { receiverId: '' }],
  ])('transfer with the receiver %s: 400 "Please select a receiver"', async (_label, receiver) => {
    await expectRefused(t, () => money(t, h.U1.token, 'transfer', { ...receiver, amount: '1.00' }), 400, {
      message: MESSAGES.receiverRequired,
      fieldErrors: { receiverId: MESSAGES.receiverRequired },
    });
  });

  it('refuses fields the call does not take', async () => {
    await expectRefused(
      t,
      () => money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: 1, userId: h.U3.id }),
      400,
      {
        code: 'VALIDATION_ERROR',
      },
    );
    await expectRefused(
      t,
      () => money(t, h.admin.token, 'topup', { userId: h.U2.id, amount: 1, status: 'failed' }),
      400,
      {
        code: 'VALIDATION_ERROR',
      },
    );
  });

  it('refuses a body that is not JSON', async () => {
    await expectRefused(t, () => money(t, h.admin.token, 'topup', `{"userId":${h.U1.id},"amount":`), 400, {
      code: 'BAD_REQUEST',
    });
  });
});

describe('Idempotency-Key', () => {
  const calls: [MoneyCall, Key, () => Record<string, unknown>][] = [
    ['topup', 'admin', () => ({ userId: h.U2.id, amount: '7.00' })],
    ['transfer', 'U1', () => ({ receiverId: h.U2.id, amount: '7.00' })],
    ['decrease', 'admin', () => ({ userId: h.U1.id, amount: '7.00', description: 'Correction' })],
  ];

  it.each(calls)('%s replayed in sequence applies once and answers the first response', async (call, key, body) => {
    const caller = h[key];
    await fund(t, h.U1.id, '20.00');
    const before = await books(t);
    const first = await money(t, caller.token, call, body(), `seq-${call}`);
    expectStatus(first, 200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const applied = await books(t);
    expect(applied.transactions).toBe(before.transactions + 1);
    expect(applied.balances).not.toEqual(before.balances);

    for (let replay = 0; replay < 3; replay += 1) {
      const again = await money(t, caller.token, call, body(), `seq-${call}`);
      expectStatus(again, 200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    expect(await books(t)).toEqual(applied);
  });

  it('the same key with the amount written differently is still the same request', async () => {
    await fund(t, h.U1.id, '5.00');
    const first = await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '1.50' }, 'same-cents');
    expectStatus(first, 200);
    const applied = await books(t);
    const again = await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: 1.5 }, 'same-cents');
    expectStatus(again, 200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await books(t)).toEqual(applied);
  });

  it('10 concurrent calls with one key apply once and all answer the same transaction', async () => {
    await fund(t, h.U1.id, '50.00');
    const before = await books(t);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        money(t, h.U1.token, 'transfer', { receiverId: h.U3.id, amount: '4.00' }, 'burst'),
      ),
    );
    for (const response of responses) expectStatus(response, 200);
    const ids = new Set(responses.map((response) => response.json<MoneyResult>().transaction.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    for (const response of responses) expect(response.json()).toEqual(responses[0]?.json());
    const after = await books(t);
    expect(after.transactions).toBe(before.transactions + 1);
    expect(after.balances).toEqual({
      ...before.balances,
      [h.U1.id]: (before.balances[h.U1.id] ?? 0) - 400,
      [h.U3.id]: (before.balances[h.U3.id] ?? 0) + 400,
    });
  });

  it('the same key with a different body is 422 and changes nothing', async () => {
    await fund(t, h.U1.id, '10.00');
    expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '1.00' }, 'other-body'), 200);
    const conflict = {
      code: 'UNPROCESSABLE',
      message: 'This Idempotency-Key was already used for a different request',
      requestId: expect.any(String),
    };
    await expectRefused(
      t,
      () => money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '2.00' }, 'other-body'),
      422,
      conflict,
    );
    await expectRefused(
      t,
      () => money(t, h.U1.token, 'transfer', { receiverId: h.U4.id, amount: '1.00' }, 'other-body'),
      422,
      conflict,
    );
    // Another call with the same key and the same fields is a different request too.
    expectStatus(await money(t, h.admin.token, 'topup', { userId: h.U1.id, amount: '1.00' }, 'admin-key'), 200);
    await expectRefused(
      t,
      () =>
        money(
          t,
          h.admin.token,
          'decrease',
          { userId: h.U1.id, amount: '1.00', description: 'Correction' },
          'admin-key',
        ),
      422,
      conflict,
    );
  });

  it("a key is the caller's own: another user with the same key is a new request", async () => {
    await fund(t, h.U1.id, '3.00');
    await fund(t, h.U2.id, '3.00');
    const mine = await money(t, h.U1.token, 'transfer', { receiverId: h.U4.id, amount: '3.00' }, 'shared-key');
    expectStatus(mine, 200);
    const before = await books(t);
    const theirs = await money(t, h.U2.token, 'transfer', { receiverId: h.U4.id, amount: '3.00' }, 'shared-key');
    expectStatus(theirs, 200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<MoneyResult>().transaction.id).not.toBe(mine.json<MoneyResult>().transaction.id);
    expect(theirs.json<MoneyResult>().transaction.userId).toBe(h.U2.id);
    const after = await books(t);
    expect(after.transactions).toBe(before.transactions + 1);
    expect(after.balances[h.U2.id]).toBe((before.balances[h.U2.id] ?? 0) - 300);
  });

  it.each([
    ['300 characters', 'k'.repeat(300)],
    ['empty', ''],
    ['with a space', 'two words'],
  ])('a key that is %s is 400 and changes nothing', async (_label, key) => {
    await fund(t, h.U1.id, '1.00');
    await expectRefused(t, () => money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '1.00' }, key), 400, {
      code: 'BAD_REQUEST',
    });
  });

  it('a key of 200 visible characters is fine', async () => {
    await fund(t, h.U1.id, '1.00');
    expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.U2.id, amount: '1.00' }, '~'.repeat(200)), 200);
  });

  it('a refused call leaves its key free: after funding, the same key succeeds once', async () => {
    const have = await balanceOf(t, h.U3.id);
    if (have > 0)
      expectStatus(
        await money(t, h.admin.token, 'decrease', {
          userId: h.U3.id,
          amount: formatCents(have),
          description: 'Correction',
        }),
        200,
      );
    const body = { receiverId: h.U5.id, amount: '5.00' };
    await expectRefused(t, () => money(t, h.U3.token, 'transfer', body, 'retry-later'), 422, INSUFFICIENT);
    await expectRefused(t, () => money(t, h.U3.token, 'transfer', body, 'retry-later'), 422, INSUFFICIENT);
    await fund(t, h.U3.id, '5.00');
    const before = await books(t);
    const success = await money(t, h.U3.token, 'transfer', body, 'retry-later');
    expectStatus(success, 200);
    expect(success.headers['idempotent-replayed']).toBeUndefined();
    expect(success.json<MoneyResult>().balance).toEqual({ userId: h.U3.id, amount: '0.00' });
    const after = await books(t);
    expect(after.transactions).toBe(before.transactions + 1);
    const replay = await money(t, h.U3.token, 'transfer', body, 'retry-later');
    expectStatus(replay, 200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(success.json());
    expect(await books(t)).toEqual(after);
  });
});
