import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureWinners, drawAll, openGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { oldClientPayload } from '../../test/old-client.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * `POST /api/sales-history` stays until its sunset (decision 053): every answer, the record and a
 * refusal alike, carries `Deprecation` (RFC 9745) and `Sunset` (RFC 8594); no other path does.
 */

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  await fund(t, h.U1.id, '100.00');
});
afterAll(() => t?.close());

const SUNSET = { deprecation: '@1795651200', sunset: 'Mon, 31 May 2027 00:00:00 GMT' };

describe('the compatibility path announces its sunset', () => {
  it('on the record of a finished game', async () => {
    const game = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: [1, 2, 3] }));
    const response = await t.request(h.U1.token, {
      method: 'POST',
      url: '/api/sales-history',
      payload: oldClientPayload(game),
    });
    expectStatus(response, 200);
    expect(response.headers.deprecation).toBe(SUNSET.deprecation);
    expect(response.headers.sunset).toBe(SUNSET.sunset);
  });

  it('on a refusal, and not on the other sales-history paths', async () => {
    const refused = await t.request(h.U1.token, { method: 'POST', url: '/api/sales-history', payload: {} });
    expectStatus(refused, 400);
    expect(refused.headers.deprecation).toBe(SUNSET.deprecation);
    expect(refused.headers.sunset).toBe(SUNSET.sunset);
    const list = await t.request(h.U1.token, { method: 'GET', url: `/api/sales-history/user/${h.U1.id}` });
    expectStatus(list, 200);
    expect(list.headers.deprecation).toBeUndefined();
    expect(list.headers.sunset).toBeUndefined();
  });
});
