import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureWinners, drawAll, openGame } from '../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../test/money-fixtures.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * One list shape (decision 072): a JSON array with the whole filtered set's count in
 * X-Total-Count. Claims and shifts keep their deprecated `{ items, total, … }` body until its
 * sunset, announced on every such answer; `Prefer: list=array` gets the array there today.
 */

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  await fund(t, h.U1.id, '100.00');
  expectStatus(
    await t.request(h.U1.token, { method: 'POST', url: '/api/shifts', payload: { openingFloat: '10.00' } }),
    201,
  );
  // Every number of the range entered: the prize is won, so the claims list has a row to page.
  const every = Array.from({ length: 20 }, (_, i) => i + 1);
  await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: every, bet: '1.00' }));
});
afterAll(() => t?.close());

const SUNSET = { deprecation: '@1795910400', sunset: 'Mon, 31 May 2027 00:00:00 GMT' };

describe.each(['/api/claims?status=all', '/api/shifts'])('%s', (url) => {
  it('answers the deprecated envelope with its sunset, and the same page as an array when preferred', async () => {
    const old = await t.request(t.adminToken, { method: 'GET', url });
    expectStatus(old, 200);
    const envelope = old.json<{ items: unknown[]; total: number }>();
    expect([envelope.items.length, envelope.total]).toEqual([1, 1]);
    expect([old.headers.deprecation, old.headers.sunset]).toEqual([SUNSET.deprecation, SUNSET.sunset]);
    expect(old.headers['x-total-count']).toBe(String(envelope.total));

    const preferred = await t.request(t.adminToken, { method: 'GET', url, headers: { prefer: 'list=array' } });
    expectStatus(preferred, 200);
    expect(preferred.json()).toEqual(envelope.items);
    expect(preferred.headers['x-total-count']).toBe(String(envelope.total));
    expect(preferred.headers['preference-applied']).toBe('list=array');
    expect([preferred.headers.deprecation, preferred.headers.sunset]).toEqual([undefined, undefined]);
  });
});

it("the claims' amount is in X-Total-Amount, as the envelope's totals", async () => {
  const old = await t.request(t.adminToken, { method: 'GET', url: '/api/claims?status=all' });
  const { totals } = old.json<{ totals: { count: number; amount: string } }>();
  expect(old.headers['x-total-amount']).toBe(totals.amount);
});

it('the array lists carry no deprecation, whatever the preference', async () => {
  const list = await t.request(t.adminToken, { method: 'GET', url: '/api/users', headers: { prefer: 'list=array' } });
  expectStatus(list, 200);
  expect(Array.isArray(list.json())).toBe(true);
  expect([list.headers.deprecation, list.headers.sunset]).toEqual([undefined, undefined]);
});
