import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents, formatCents } from '@lot/domain/money';
import type { MoneyResult, Transaction } from '@lot/domain/schemas/balance';
import { queryRows } from '../../db/client.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/** GET /api/transactions: who sees which rows, their shape, order, filters and paging. */

let t: TestApp;
let h: Hierarchy;
/** Every ledger row the suite made, in the order it made them. */
const made: Transaction[] = [];

async function moved(member: Member, call: 'transfer' | 'decrease', payload: Record<string, unknown>) {
  const response = await money(t, member.token, call, payload);
  expectStatus(response, 200);
  made.push(response.json<MoneyResult>().transaction);
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  made.push((await fund(t, h.U1.id, '100.00')).transaction);
  made.push((await fund(t, h.U2.id, '50.00')).transaction);
  made.push((await fund(t, h.A1.id, '30.00')).transaction);
  await moved(h.U1, 'transfer', { receiverId: h.U2.id, amount: '10.00' });
  await moved(h.U2, 'transfer', { receiverId: h.U5.id, amount: 5 });
  await moved(h.A1, 'transfer', { receiverId: h.U1.id, amount: '7.5' });
  await moved(h.admin, 'decrease', {
    userId: h.U1.id,
    amount: '1.00',
    description: 'Correction: counted twice',
  });
  await moved(h.U1, 'transfer', { receiverId: h.U4.id, amount: '2.25' });
  for (let i = 1; i <= 12; i += 1) made.push((await fund(t, h.A2.id, `0.${String(i).padStart(2, '0')}`)).transaction);
  await moved(h.A2, 'transfer', { receiverId: h.U3.id, amount: '0.50' });
});
afterAll(() => t?.close());

const list = (member: Member | null, query = '') =>
  t.request(member ? member.token : null, { method: 'GET', url: `/api/transactions${query}` });

function rows(response: LightMyRequestResponse): Transaction[] {
  expectStatus(response, 200);
  return response.json<Transaction[]>();
}

const ids = (transactions: Transaction[]) => transactions.map((row) => row.id);
const newestFirst = (transactions: Transaction[]) => [...transactions].sort((a, b) => b.id - a.id);
const involving = (member: Member) => made.filter((row) => row.userId === member.id || row.receiverId === member.id);

describe('GET /api/transactions: who sees what', () => {
  it('needs a token', async () => {
    expectStatus(await list(null), 401);
  });

  it('the admin sees every row, newest first, with the total in X-Total-Count', async () => {
    const response = await list(h.admin);
    const all = rows(response);
    const stored = await queryRows<{ id: number }>(
      t.database.db,
      sql`SELECT id FROM transactions ORDER BY created_at DESC, id DESC`,
    );
    expect(ids(all)).toEqual(stored.map((row) => Number(row.id)));
    expect(ids(all)).toEqual(ids(newestFirst(made)));
    expect(response.headers['x-total-count']).toBe(String(made.length));
    for (let i = 1; i < all.length; i += 1) {
      expect(Date.parse(all[i - 1]?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(all[i]?.createdAt ?? ''));
    }
  });

  it.each(['U1', 'U2', 'U4', 'U5', 'A1', 'A2', 'U3'] as const)(
    '%s sees exactly the rows it sent or received',
    async (key) => {
      const response = await list(h[key]);
      const expected = newestFirst(involving(h[key]));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(rows(response))).toEqual(ids(expected));
      expect(response.headers['x-total-count']).toBe(String(expected.length));
    },
  );

  it.each(['S1', 'S2', 'A3'] as const)("%s, party to none, sees none (not even its users' rows)", async (key) => {
    const response = await list(h[key]);
    expect(rows(response)).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
  });

  it('a transfer shows up for its sender and its receiver and for no one else', async () => {
    const transfer = made.find(
      (row) => row.type === 'transfer' && row.userId === h.U1.id && row.receiverId === h.U2.id,
    );
    expect(transfer).toBeDefined();
    for (const member of [h.admin, h.U1, h.U2]) expect(ids(rows(await list(member)))).toContain(transfer?.id);
    for (const member of [h.U3, h.U4, h.U5, h.A1, h.S1])
      expect(ids(rows(await list(member)))).not.toContain(transfer?.id);
  });

  it('a row carries its parties and a 2-decimal amount, as the money call answered it', async () => {
    const all = rows(await list(h.admin));
    for (const row of made) expect(all.find((listed) => listed.id === row.id)).toEqual(row);
    const fromA1 = all.find((row) => row.userId === h.A1.id && row.type === 'transfer');
    expect(fromA1).toEqual({
      id: expect.any(Number),
      type: 'transfer',
      userId: h.A1.id,
      receiverId: h.U1.id,
      amount: '7.50',
      status: 'completed',
      description: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      user: { id: h.A1.id, username: h.A1.username, fullName: h.A1.fullName },
      receiver: { id: h.U1.id, username: h.U1.username, fullName: h.U1.fullName },
      gameCode: null,
      gameNumber: null,
    });
    const correction = all.find((row) => row.type === 'decrease' && row.userId === h.U1.id);
    expect(correction).toMatchObject({
      amount: '1.00',
      receiverId: null,
      receiver: null,
      description: 'Correction: counted twice',
    });
    const topup = all.find((row) => row.type === 'topup' && row.receiverId === h.U2.id);
    expect(topup).toMatchObject({ amount: '50.00', userId: h.admin.id, user: { id: h.admin.id, username: 'admin' } });
    for (const row of all) expect(row.amount).toMatch(/^\d+\.\d{2}$/);
  });

  it('a refused money call leaves no row', async () => {
    const before = rows(await list(h.admin)).length;
    expectStatus(await money(t, h.U3.token, 'transfer', { receiverId: h.U5.id, amount: '999.00' }), 422);
    expectStatus(await money(t, h.U1.token, 'transfer', { receiverId: h.A1.id, amount: '1.00' }), 404);
    expect(rows(await list(h.admin))).toHaveLength(before);
  });
});

describe('GET /api/transactions: filters', () => {
  it.each(['topup', 'transfer', 'decrease'] as const)(
    'type=%s keeps only that type, for admin and user',
    async (type) => {
      for (const member of [h.admin, h.U1]) {
        const expected = newestFirst(
          (member === h.admin ? made : involving(member)).filter((row) => row.type === type),
        );
        expect(expected.length).toBeGreaterThan(0);
        const response = await list(member, `?type=${type}`);
        expect(ids(rows(response))).toEqual(ids(expected));
        expect(response.headers['x-total-count']).toBe(String(expected.length));
      }
    },
  );

  it('type=game with no games is an empty list', async () => {
    const response = await list(h.admin, '?type=game');
    expect(rows(response)).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
  });

  /** The rows whose createdAt (as the API shows it, to the millisecond) lies within [from, to]. */
  function within(from: number | null, to: number | null, source = made) {
    return newestFirst(
      source.filter((row) => {
        const at = Date.parse(row.createdAt);
        return (from === null || at >= from) && (to === null || at <= to);
      }),
    );
  }
  const iso = (ms: number) => new Date(ms).toISOString();

  it("from and to are inclusive at a real row's createdAt", async () => {
    // Rows in the middle of the history, so both sides of each boundary hold rows.
    for (const row of [made[3], made[6], made[10]]) {
      if (!row) throw new Error('not enough rows');
      const at = Date.parse(row.createdAt);
      const exactly = await list(h.admin, `?from=${row.createdAt}&to=${row.createdAt}`);
      expect(ids(rows(exactly))).toContain(row.id);
      expect(ids(rows(exactly))).toEqual(ids(within(at, at)));
      expect(exactly.headers['x-total-count']).toBe(String(within(at, at).length));

      const fromRow = rows(await list(h.admin, `?from=${row.createdAt}`));
      expect(ids(fromRow)).toContain(row.id);
      expect(ids(fromRow)).toEqual(ids(within(at, null)));
      const toRow = rows(await list(h.admin, `?to=${row.createdAt}`));
      expect(ids(toRow)).toContain(row.id);
      expect(ids(toRow)).toEqual(ids(within(null, at)));
      // Together the two halves cover everything, overlapping exactly at the boundary.
      expect(new Set([...ids(fromRow), ...ids(toRow)]).size).toBe(made.length);

      // One millisecond off and the row is out.
      expect(ids(rows(await list(h.admin, `?from=${iso(at + 1)}`)))).not.toContain(row.id);
      expect(ids(rows(await list(h.admin, `?to=${iso(at - 1)}`)))).not.toContain(row.id);
    }
  });

  it('accepts the boundaries with a time-zone offset', async () => {
    const row = made[5];
    if (!row) throw new Error('not enough rows');
    const at = Date.parse(row.createdAt);
    // The same instant written in UTC+02:00.
    const local = new Date(at + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const response = await list(h.admin, `?from=${encodeURIComponent(local)}&to=${encodeURIComponent(local)}`);
    expect(ids(rows(response))).toEqual(ids(within(at, at)));
    expect(ids(rows(response))).toContain(row.id);
  });

  it("a range combines with the caller's scope and the type", async () => {
    const first = involving(h.U1)[0];
    const last = involving(h.U1).at(-1);
    if (!first || !last) throw new Error('U1 has no rows');
    const from = Date.parse(first.createdAt);
    const to = Date.parse(last.createdAt);
    const response = await list(h.U1, `?type=transfer&from=${first.createdAt}&to=${last.createdAt}`);
    const expected = within(from, to, involving(h.U1)).filter((row) => row.type === 'transfer');
    expect(ids(rows(response))).toEqual(ids(expected));
    expect(response.headers['x-total-count']).toBe(String(expected.length));
  });

  it('search matches either party by username or full name, ignoring case', async () => {
    const expected = newestFirst(involving(h.U2));
    expect(ids(rows(await list(h.admin, '?search=user_two')))).toEqual(ids(expected));
    expect(ids(rows(await list(h.admin, '?search=USER%20TWO')))).toEqual(ids(expected));
    expect(rows(await list(h.U3, '?search=user_two'))).toEqual([]);
    // LIKE wildcards are plain characters.
    expect(rows(await list(h.admin, '?search=%25'))).toEqual([]);
  });

  it.each([
    ['an unknown type', '?type=bonus'],
    ['a from that is not a date-time', '?from=yesterday'],
    ['a to that is only a date', '?to=2024-01-01'],
    ['a limit of 0', '?limit=0'],
    ['a limit over 1000', '?limit=1001'],
    ['a negative offset', '?offset=-1'],
    ['an unknown parameter', '?userId=1'],
  ])('refuses %s with 400', async (_label, query) => {
    const response = await list(h.admin, query);
    expectStatus(response, 400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
  });
});

describe('GET /api/transactions: paging', () => {
  it.each([
    ['admin', 3],
    ['admin', 7],
    ['U1', 2],
    ['A2', 5],
  ] as const)(
    '%s, pages of %i: every page says the total and the pages join up to the whole list',
    async (key, size) => {
      const whole = rows(await list(h[key]));
      expect(whole.length).toBeGreaterThan(size);
      const joined: Transaction[] = [];
      for (let offset = 0; offset < whole.length + size; offset += size) {
        const response = await list(h[key], `?limit=${size}&offset=${offset}`);
        const page = rows(response);
        expect(response.headers['x-total-count']).toBe(String(whole.length));
        expect(page.length).toBe(Math.max(0, Math.min(size, whole.length - offset)));
        joined.push(...page);
      }
      expect(joined).toEqual(whole);
    },
  );

  it('a filtered list pages too', async () => {
    const whole = rows(await list(h.admin, '?type=topup'));
    const first = await list(h.admin, '?type=topup&limit=4');
    const rest = await list(h.admin, '?type=topup&limit=1000&offset=4');
    expect(first.headers['x-total-count']).toBe(String(whole.length));
    expect(rest.headers['x-total-count']).toBe(String(whole.length));
    expect([...rows(first), ...rows(rest)]).toEqual(whole);
  });
});

describe('transaction volume', () => {
  it('X-Total-Amount is the sum of the whole filtered set, not of the page', async () => {
    const all = await t.request(t.adminToken, { method: 'GET', url: '/api/transactions?limit=1000' });
    const page = await t.request(t.adminToken, { method: 'GET', url: '/api/transactions?limit=2' });
    const sum = all.json<{ amount: string }[]>().reduce((cents, row) => cents + decimalToCents(row.amount), 0);
    expect(all.json<unknown[]>().length).toBeGreaterThan(2);
    expect(page.headers['x-total-amount']).toBe(formatCents(sum));
    expect(all.headers['x-total-amount']).toBe(formatCents(sum));
  });
});

describe('GET /api/transactions: direction (the user dashboard’s Total Sent and Total Received)', () => {
  const totals = async (member: Member, direction: 'sent' | 'received') => {
    const response = await list(member, `?direction=${direction}&limit=1`);
    expectStatus(response, 200);
    return { count: response.headers['x-total-count'], amount: response.headers['x-total-amount'] };
  };

  it('received is what came in, sent what went out, and together they make the balance', async () => {
    // U1: top-up 100.00 and 7.50 from A1 in; 10.00 and 2.25 transferred and 1.00 decreased out.
    expect(await totals(h.U1, 'received')).toEqual({ count: '2', amount: '107.50' });
    expect(await totals(h.U1, 'sent')).toEqual({ count: '3', amount: '13.25' });
    const balance = await t.request(h.U1.token, { method: 'GET', url: '/api/balance' });
    expect(balance.json<{ amount: string }>().amount).toBe('94.25');
    const rowsSent = rows(await list(h.U1, '?direction=sent'));
    expect(rowsSent.every((row) => row.userId === h.U1.id)).toBe(true);
    expect(rows(await list(h.U1, '?direction=received')).every((row) => row.receiverId === h.U1.id)).toBe(true);
  });

  it('is relative to the caller, even for the admin: a top-up is not money the admin sent', async () => {
    expect(await totals(h.admin, 'sent')).toEqual({ count: '0', amount: '0.00' });
    expect(await totals(h.admin, 'received')).toEqual({ count: '0', amount: '0.00' });
    // U5 received 5.00 from U2 and sent nothing.
    expect(await totals(h.U5, 'received')).toEqual({ count: '1', amount: '5.00' });
    expect(await totals(h.U5, 'sent')).toEqual({ count: '0', amount: '0.00' });
  });

  it('refuses an unknown direction', async () => {
    expectStatus(await list(h.U1, '?direction=sideways'), 400);
  });
});
