import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import type { Game, RememberedParticipant } from '@lot/domain/schemas/games';
import {
  configureWinners,
  drawAll,
  expectNoEffect,
  openGame,
  openGameCall,
  putEntries,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/** Participants remembered per shop, and the phone's plausible form (docs/product/game.md#participants). */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  for (const member of [h.U1, h.U2]) await fund(t, member.id, '1000.00');
});
afterAll(async () => {
  await t.close();
});

async function playAt(
  member: typeof h.U1,
  entries: { number: number; name: string; phoneNumber: string }[],
  iso: string,
) {
  const game = await drawAll(t, member, await openGame(t, member, { numbers: entries }));
  await t.database.db.execute(sql`UPDATE game_rounds SET created_at = ${iso}::timestamptz WHERE id = ${game.id}`);
  return game;
}

const search = async (token: string, query: string) => {
  const response = await t.request(token, { method: 'GET', url: `/api/games/participants${query}` });
  expectStatus(response, 200);
  return response.json<RememberedParticipant[]>().map((p) => `${p.name}|${p.phoneNumber}`);
};

describe('participants remembered', () => {
  it('once per name and phone, most recently used first, only the own shop, searched by name or phone', async () => {
    await playAt(
      h.U1,
      [
        { number: 1, name: 'Ana Lopez', phoneNumber: '555-0101' },
        { number: 2, name: 'Ben Okafor', phoneNumber: '+1 555 0102' },
      ],
      '2026-01-01T10:00:00Z',
    );
    await playAt(
      h.U1,
      [
        { number: 3, name: 'Ana Lopez', phoneNumber: '555-0101' },
        { number: 4, name: 'Ana Lopez', phoneNumber: '555-0999' },
        { number: 5, name: 'Carla Diaz', phoneNumber: '5550103' },
      ],
      '2026-01-02T10:00:00Z',
    );
    await playAt(h.U2, [{ number: 1, name: 'Zed Other', phoneNumber: '555-0101' }], '2026-01-03T10:00:00Z');
    expect(await search(h.U1.token, '')).toEqual([
      'Ana Lopez|555-0101',
      'Ana Lopez|555-0999',
      'Carla Diaz|5550103',
      'Ben Okafor|+1 555 0102',
    ]);
    expect(await search(h.U1.token, '?search=ana')).toEqual(['Ana Lopez|555-0101', 'Ana Lopez|555-0999']);
    expect(await search(h.U1.token, '?search=0102')).toEqual(['Ben Okafor|+1 555 0102']);
    expect(await search(h.U1.token, '?search=5550102')).toEqual(['Ben Okafor|+1 555 0102']);
    expect(await search(h.U1.token, '?search=%25')).toEqual([]);
    expect(await search(h.U1.token, '?limit=2')).toEqual(['Ana Lopez|555-0101', 'Ana Lopez|555-0999']);
    expect(await search(h.U2.token, '')).toEqual(['Zed Other|555-0101']);
  });

  it('for the shop (role user) only', async () => {
    for (const member of [h.A1, h.S1, h.admin]) {
      const response = await t.request(member.token, { method: 'GET', url: '/api/games/participants' });
      expectStatus(response, 403);
    }
    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/games/participants?limit=51' }), 400);
  });
});

describe('the phone of a plausible form', () => {
  it('digits, spaces, + and - with 7 to 15 digits; anything else is 400 with a clear message', async () => {
    const opened = await openGameCall(t, h.U1.token, { startRange: 1, endRange: 20, betAmount: '1' });
    expectStatus(opened, 201);
    const game = opened.json<Game>();
    for (const phone of ['555-010', '(555) 0101', '555.0101', '555 0101 x2', '1234567890123456', '+', 'abcdefgh']) {
      const response = await expectNoEffect(
        t,
        () => putEntries(t, h.U1.token, game.id, [{ number: 1, name: 'Ana', phoneNumber: phone }]),
        400,
      );
      expect(Object.values(response.json<{ fieldErrors: Record<string, string> }>().fieldErrors)).toEqual([
        MESSAGES.participantPhoneInvalid,
      ]);
    }
    expect(MESSAGES.participantPhoneInvalid).toBe(
      'Phone Number must have 7 to 15 digits (digits, spaces, + and - only)',
    );
    const empty = await putEntries(t, h.U1.token, game.id, [{ number: 1, name: 'Ana', phoneNumber: ' ' }]);
    expect(Object.values(empty.json<{ fieldErrors: Record<string, string> }>().fieldErrors)).toEqual([
      MESSAGES.participantPhoneRequired,
    ]);
    for (const phone of ['5550101', '+1-555-0102', '555 0101 234', '+44 20 7946 0958', '123456789012345']) {
      expectStatus(await putEntries(t, h.U1.token, game.id, [{ number: 1, name: 'Ana', phoneNumber: phone }]), 200);
    }
  });
});
