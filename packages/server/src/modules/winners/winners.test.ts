import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { positionTaken, SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { EffectiveWinners, Winner } from '@lot/domain/schemas/winners';
import { queryRows } from '../../db/client.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/** Winner configurations (docs/product/validation-and-errors.md#winner-form, roles-and-scope.md): validation, who manages whose, the game's set. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const FORBIDDEN = { message: SERVER_MESSAGES.forbidden, code: 'FORBIDDEN', requestId: expect.any(String) };

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> };
const call = (caller: Member | string, { method, url, payload }: Call) =>
  t.request(typeof caller === 'string' ? caller : caller.token, { method, url, ...(payload && { payload }) });

const create = (caller: Member, payload: Record<string, unknown>) =>
  call(caller, { method: 'POST', url: '/api/winners', payload });

async function created(caller: Member, payload: Record<string, unknown>): Promise<Winner> {
  const response = await create(caller, payload);
  expectStatus(response, 201);
  return response.json<Winner>();
}

/** Every stored configuration, to prove a refused call wrote nothing. */
async function stored() {
  const rows = await queryRows<Record<string, unknown>>(
    t.database.db,
    sql`SELECT id, user_id, name, percent_bps, position, description, is_active FROM winner_configs ORDER BY id`,
  );
  return rows;
}

async function expectUnchanged(request: () => Promise<LightMyRequestResponse>, status: number, body?: object) {
  const before = await stored();
  const response = await request();
  expectStatus(response, status);
  if (body) expect(response.json()).toMatchObject(body);
  expect(await stored()).toEqual(before);
  return response;
}

const ownerOf = (member: Member) => ({ id: member.id, username: member.username, fullName: member.fullName });

describe('POST /api/winners validation (the documented messages)', () => {
  const valid = () => ({ name: 'First', percent: '25', position: 1 });

  it.each([
    ['missing name', { name: undefined }, 'name', MESSAGES.nameRequired],
    ['blank name', { name: '   ' }, 'name', MESSAGES.nameRequired],
    ['empty name', { name: '' }, 'name', MESSAGES.nameRequired],
    ['missing percent', { percent: undefined }, 'percent', MESSAGES.percentRequired],
    ['empty percent', { percent: '' }, 'percent', MESSAGES.percentRequired],
    ['null percent', { percent: null }, 'percent', MESSAGES.percentRequired],
    ['percent -1', { percent: -1 }, 'percent', MESSAGES.percentRange],
    ['percent "-1"', { percent: '-1' }, 'percent', MESSAGES.percentRange],
    ['percent 100.01', { percent: 100.01 }, 'percent', MESSAGES.percentRange],
    ['percent "100.01"', { percent: '100.01' }, 'percent', MESSAGES.percentRange],
    ['percent 1000', { percent: 1000 }, 'percent', MESSAGES.percentRange],
    ['percent "1.234"', { percent: '1.234' }, 'percent', MESSAGES.percentDecimals],
    ['percent 1.234', { percent: 1.234 }, 'percent', MESSAGES.percentDecimals],
    ['percent "abc"', { percent: 'abc' }, 'percent', MESSAGES.percentRange],
    ['percent true', { percent: true }, 'percent', MESSAGES.percentRange],
    ['position 0', { position: 0 }, 'position', MESSAGES.positionInvalid],
    ['position -1', { position: -1 }, 'position', MESSAGES.positionInvalid],
    ['position 1.5', { position: 1.5 }, 'position', MESSAGES.positionInvalid],
    ['position "x"', { position: 'x' }, 'position', MESSAGES.positionInvalid],
    ['position "0"', { position: '0' }, 'position', MESSAGES.positionInvalid],
    ['position null', { position: null }, 'position', MESSAGES.positionInvalid],
  ])('%s is 400 "%s" and writes nothing', async (_label, change, field, message) => {
    for (const caller of [h.admin, h.U1]) {
      await expectUnchanged(() => create(caller, { ...valid(), ...change }), 400, {
        code: 'VALIDATION_ERROR',
        message,
        fieldErrors: { [field]: message },
        requestId: expect.any(String),
      });
    }
  });

  it('reports every bad field at once, the first one leading', async () => {
    const response = await expectUnchanged(() => create(h.admin, { percent: '1.234', position: 0 }), 400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: MESSAGES.nameRequired,
      fieldErrors: {
        name: MESSAGES.nameRequired,
        percent: MESSAGES.percentDecimals,
        position: MESSAGES.positionInvalid,
      },
      requestId: expect.any(String),
    });
  });

  it('refuses fields it does not know and a non-boolean isActive', async () => {
    await expectUnchanged(() => create(h.admin, { ...valid(), isDefault: true }), 400, {
      fieldErrors: { isDefault: "Field 'isDefault' is not allowed" },
    });
    await expectUnchanged(() => create(h.admin, { ...valid(), isActive: 'yes' }), 400, {
      fieldErrors: { isActive: 'Active must be true or false' },
    });
  });

  it('answers the entity: percent with two decimals, position 1 by default, active by default', async () => {
    const response = await create(h.admin, { name: '  Jackpot  ', percent: 25, userId: h.U3.id });
    expectStatus(response, 201);
    const winner = response.json<Winner>();
    expect(winner).toEqual({
      id: expect.any(Number),
      userId: h.U3.id,
      name: 'Jackpot',
      percent: '25.00',
      position: 1,
      description: null,
      isActive: true,
      createdAt: expect.any(String),
      user: ownerOf(h.U3),
    });
    expect(new Date(winner.createdAt).toISOString()).toBe(winner.createdAt);
    const [row] = (await stored()).filter((r) => r.id === winner.id);
    expect(row).toMatchObject({ percent_bps: 2500, position: 1, is_active: true, user_id: h.U3.id });
  });

  it.each([
    [0, '0.00'],
    ['0', '0.00'],
    [100, '100.00'],
    ['100.00', '100.00'],
    ['12.5', '12.50'],
    [33.33, '33.33'],
    [' 7.05 ', '7.05'],
  ])('percent %j is stored and answered as %s', async (percent, answered) => {
    // Inactive: position 3 can have one active prize only.
    const winner = await created(h.admin, { name: 'Edge', percent, position: 3, isActive: false });
    expect(winner.percent).toBe(answered);
  });

  it('takes a position sent as a string, an empty position as 1, and keeps a description', async () => {
    expect((await created(h.U1, { name: 'Second', percent: '10', position: '2' })).position).toBe(2);
    expect((await created(h.U1, { name: 'Blank', percent: '10', position: '', isActive: false })).position).toBe(1);
    const described = await created(h.U1, { name: 'Third', percent: '5', position: 3, description: 'Bronze' });
    expect(described.description).toBe('Bronze');
    const noDescription = await created(h.U1, { name: 'NoDesc', percent: '5', description: '', isActive: false });
    expect(noDescription.description).toBeNull();
    const inactive = await created(h.U1, { name: 'Off', percent: '5', isActive: false });
    expect(inactive.isActive).toBe(false);
  });
});

describe('who manages whose winner configurations (docs/product/roles-and-scope.md#authorization-table)', () => {
  let globalId: number;
  let u1Id: number;
  let u2Id: number;

  beforeAll(async () => {
    globalId = (await created(h.admin, { name: 'Global', percent: '40', position: 1 })).id;
    u1Id = (await created(h.U1, { name: 'Mine', percent: '60', position: 1 })).id;
    u2Id = (await created(h.admin, { name: 'Theirs', percent: '70', position: 1, userId: h.U2.id })).id;
  });

  it('needs a token', async () => {
    expectStatus(await call('', { method: 'GET', url: '/api/winners' }), 401);
    expectStatus(await call('', { method: 'POST', url: '/api/winners', payload: { name: 'x', percent: 1 } }), 401);
  });

  it('admin: an empty, null or missing user makes a global configuration', async () => {
    for (const userId of [undefined, null, '']) {
      const winner = await created(h.admin, {
        name: 'G',
        percent: '1',
        isActive: false,
        ...(userId !== undefined && { userId }),
      });
      expect(winner).toMatchObject({ userId: null, user: null });
    }
  });

  it('admin: a configuration for a user carries the user', async () => {
    const winner = await created(h.admin, { name: 'For U3', percent: '15', position: 2, userId: String(h.U3.id) });
    expect(winner).toMatchObject({ userId: h.U3.id, user: ownerOf(h.U3), position: 2 });
  });

  it('admin: only players (role user) have winner settings; an unknown user is 404', async () => {
    for (const member of [h.S1, h.A1, h.admin]) {
      await expectUnchanged(() => create(h.admin, { name: 'x', percent: '1', userId: member.id }), 400, {
        code: 'VALIDATION_ERROR',
        fieldErrors: { userId: 'Winner settings belong to a user' },
        requestId: expect.any(String),
      });
    }
    await expectUnchanged(() => create(h.admin, { name: 'x', percent: '1', userId: 999_999 }), 404, {
      code: 'NOT_FOUND',
    });
  });

  it('admin lists all, the global ones, or one user’s, with X-Total-Count', async () => {
    const all = await call(h.admin, { method: 'GET', url: '/api/winners' });
    expectStatus(all, 200);
    const rows = await stored();
    expect(all.headers['x-total-count']).toBe(String(rows.length));
    expect(
      all
        .json<Winner[]>()
        .map((w) => w.id)
        .sort((a, b) => a - b),
    ).toEqual(rows.map((r) => r.id));
    // Global ones first, then by user, each by position.
    const listed = all.json<Winner[]>();
    const firstOwned = listed.findIndex((w) => w.userId !== null);
    expect(listed.slice(firstOwned).every((w) => w.userId !== null)).toBe(true);

    const global = await call(h.admin, { method: 'GET', url: '/api/winners?userId=global' });
    expectStatus(global, 200);
    const globals = global.json<Winner[]>();
    expect(globals.map((w) => w.id)).toContain(globalId);
    expect(globals.every((w) => w.userId === null && w.user === null)).toBe(true);
    expect(global.headers['x-total-count']).toBe(String(rows.filter((r) => r.user_id === null).length));

    const ofU2 = await call(h.admin, { method: 'GET', url: `/api/winners?userId=${h.U2.id}` });
    expectStatus(ofU2, 200);
    expect(ofU2.json<Winner[]>().map((w) => w.id)).toEqual([u2Id]);
    expect(ofU2.headers['x-total-count']).toBe('1');

    const page = await call(h.admin, { method: 'GET', url: '/api/winners?limit=2&offset=1' });
    expectStatus(page, 200);
    expect(page.json<Winner[]>().map((w) => w.id)).toEqual(listed.slice(1, 3).map((w) => w.id));
    expect(page.headers['x-total-count']).toBe(String(rows.length));
  });

  it('GET /api/winners/user/{id}: admin any user; a user only their own, never the global ones', async () => {
    const byAdmin = await call(h.admin, { method: 'GET', url: `/api/winners/user/${h.U2.id}` });
    expectStatus(byAdmin, 200);
    expect(byAdmin.json<Winner[]>().map((w) => w.id)).toEqual([u2Id]);

    const own = await call(h.U1, { method: 'GET', url: `/api/winners/user/${h.U1.id}` });
    expectStatus(own, 200);
    const mine = own.json<Winner[]>();
    expect(mine.map((w) => w.id)).toContain(u1Id);
    expect(mine.every((w) => w.userId === h.U1.id)).toBe(true);
    expect(mine.map((w) => w.id).sort((a, b) => a - b)).toEqual(
      (await stored()).filter((r) => r.user_id === h.U1.id).map((r) => r.id),
    );

    for (const other of [h.U2, h.S1, h.admin]) {
      const response = await call(h.U1, { method: 'GET', url: `/api/winners/user/${other.id}` });
      expectStatus(response, 403);
      expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('a user may not list all configurations', async () => {
    const response = await call(h.U1, { method: 'GET', url: '/api/winners' });
    expectStatus(response, 403);
    expect(response.json()).toEqual(FORBIDDEN);
  });

  it('a user creates their own, with the user omitted or their own id', async () => {
    expect(await created(h.U2, { name: 'Mine too', percent: '5', position: 4 })).toMatchObject({
      userId: h.U2.id,
      user: ownerOf(h.U2),
    });
    expect(await created(h.U2, { name: 'Own id', percent: '5', position: 5, userId: h.U2.id })).toMatchObject({
      userId: h.U2.id,
    });
  });

  it('a user creating one for another user is 403 and writes nothing', async () => {
    for (const userId of [h.U1.id, h.U3.id, h.S1.id, h.admin.id]) {
      await expectUnchanged(() => create(h.U2, { name: 'Sneaky', percent: '5', userId }), 403, {
        code: 'FORBIDDEN',
      });
    }
  });

  it("a user's PUT or DELETE of another user's or a global configuration is 404 and changes nothing", async () => {
    const body = { name: 'Taken', percent: '99', position: 1 };
    for (const id of [u2Id, globalId, 999_999]) {
      await expectUnchanged(() => call(h.U1, { method: 'PUT', url: `/api/winners/${id}`, payload: body }), 404, {
        code: 'NOT_FOUND',
      });
      await expectUnchanged(() => call(h.U1, { method: 'DELETE', url: `/api/winners/${id}` }), 404, {
        code: 'NOT_FOUND',
      });
    }
  });

  it('a user edits and deletes their own', async () => {
    const mine = await created(h.U1, { name: 'Temp', percent: '3', position: 7 });
    const edited = await call(h.U1, {
      method: 'PUT',
      url: `/api/winners/${mine.id}`,
      payload: { name: 'Temp 2', percent: '4.5', position: 8, description: 'edited', isActive: false },
    });
    expectStatus(edited, 200);
    expect(edited.json()).toEqual({
      ...mine,
      name: 'Temp 2',
      percent: '4.50',
      position: 8,
      description: 'edited',
      isActive: false,
    });
    // PUT validates like POST.
    await expectUnchanged(
      () => call(h.U1, { method: 'PUT', url: `/api/winners/${mine.id}`, payload: { name: 'x', percent: '101' } }),
      400,
      { message: MESSAGES.percentRange },
    );
    const removed = await call(h.U1, { method: 'DELETE', url: `/api/winners/${mine.id}` });
    expectStatus(removed, 200);
    expect(removed.json()).toEqual({ message: expect.any(String) });
    expect((await stored()).some((r) => r.id === mine.id)).toBe(false);
    await expectUnchanged(() => call(h.U1, { method: 'DELETE', url: `/api/winners/${mine.id}` }), 404);
  });

  it('admin edits anyone’s and the global ones but does not move one to another owner', async () => {
    const global = await call(h.admin, {
      method: 'PUT',
      url: `/api/winners/${globalId}`,
      payload: { name: 'Global 2', percent: '45', position: 1, userId: '' },
    });
    expectStatus(global, 200);
    expect(global.json()).toMatchObject({ id: globalId, userId: null, name: 'Global 2', percent: '45.00' });

    const theirs = await call(h.admin, {
      method: 'PUT',
      url: `/api/winners/${u2Id}`,
      payload: { name: 'Theirs 2', percent: '71', position: 2 },
    });
    expectStatus(theirs, 200);
    expect(theirs.json()).toMatchObject({ id: u2Id, userId: h.U2.id, user: ownerOf(h.U2), position: 2 });

    await expectUnchanged(
      () =>
        call(h.admin, {
          method: 'PUT',
          url: `/api/winners/${u2Id}`,
          payload: { name: 'Moved', percent: '71', userId: h.U1.id },
        }),
      400,
      { fieldErrors: { userId: expect.any(String) } },
    );
    await expectUnchanged(
      () => call(h.admin, { method: 'PUT', url: '/api/winners/999999', payload: { name: 'x', percent: '1' } }),
      404,
    );
    await expectUnchanged(() => call(h.admin, { method: 'DELETE', url: '/api/winners/999999' }), 404);
  });

  it('superagents and agents are refused every winners call, valid or not (403)', async () => {
    const body = { name: 'Nope', percent: '10', position: 1 };
    const calls: Call[] = [
      { method: 'GET', url: '/api/winners' },
      { method: 'GET', url: '/api/winners?userId=global' },
      { method: 'GET', url: '/api/winners?userId=nonsense' },
      { method: 'GET', url: `/api/winners/user/${h.U1.id}` },
      { method: 'GET', url: `/api/winners/effective` },
      { method: 'GET', url: `/api/winners/effective?userId=${h.U1.id}` },
      { method: 'POST', url: '/api/winners', payload: body },
      { method: 'POST', url: '/api/winners', payload: { ...body, userId: h.U1.id } },
      { method: 'POST', url: '/api/winners', payload: {} },
      { method: 'PUT', url: `/api/winners/${u1Id}`, payload: body },
      { method: 'PUT', url: `/api/winners/${globalId}`, payload: { percent: 'abc' } },
      { method: 'DELETE', url: `/api/winners/${u1Id}` },
      { method: 'DELETE', url: `/api/winners/${globalId}` },
    ];
    for (const member of [h.S1, h.S2, h.A1, h.A3]) {
      for (const request of calls) {
        const response = await expectUnchanged(() => call(member, request), 403);
        expect(response.json(), `${member.username} ${request.method} ${request.url}`).toEqual(FORBIDDEN);
      }
    }
  });
});

describe('GET /api/winners/effective: the configuration the game uses (docs/product/roles-and-scope.md#effective-winner-settings)', () => {
  const effective = async (caller: Member, userId?: number) => {
    const response = await call(caller, {
      method: 'GET',
      url: `/api/winners/effective${userId === undefined ? '' : `?userId=${userId}`}`,
    });
    expectStatus(response, 200);
    const body = response.json<EffectiveWinners>();
    return { source: body.source, ids: body.winners.map((w) => w.id), winners: body.winners };
  };

  /** Deletes every global configuration, so each case starts from a known state. */
  async function clearGlobals() {
    const response = await call(h.admin, { method: 'GET', url: '/api/winners?userId=global' });
    for (const winner of response.json<Winner[]>()) {
      expectStatus(await call(h.admin, { method: 'DELETE', url: `/api/winners/${winner.id}` }), 200);
    }
  }

  beforeAll(clearGlobals);

  it('none: no own and no global configuration', async () => {
    expect(await effective(h.U4)).toEqual({ source: 'none', ids: [], winners: [] });
  });

  it('global: a player without active own ones uses the active global ones by position; inactive ignored', async () => {
    const third = await created(h.admin, { name: 'Third', percent: '10', position: 3 });
    const off = await created(h.admin, { name: 'Off', percent: '50', position: 1, isActive: false });
    const first = await created(h.admin, { name: 'First', percent: '50', position: 1 });
    const second = await created(h.admin, { name: 'Second', percent: '30', position: 2 });
    expect(off.isActive).toBe(false);

    const seen = await effective(h.U4);
    expect(seen.source).toBe('global');
    expect(seen.ids).toEqual([first.id, second.id, third.id]);
    expect(seen.winners.map((w) => w.position)).toEqual([1, 2, 3]);
    expect(seen.winners[0]).toEqual(first);

    // An inactive own configuration does not replace the global ones.
    const ownOff = await created(h.U4, { name: 'Own off', percent: '100', position: 1, isActive: false });
    expect((await effective(h.U4)).ids).toEqual([first.id, second.id, third.id]);

    // One active own configuration does.
    const ownB = await created(h.U4, { name: 'Own B', percent: '20', position: 2 });
    const ownA = await created(h.U4, { name: 'Own A', percent: '80', position: 1 });
    expect(await effective(h.U4)).toMatchObject({ source: 'own', ids: [ownA.id, ownB.id] });

    // Deactivating the own ones falls back to the globals again.
    for (const own of [ownA, ownB]) {
      const response = await call(h.U4, {
        method: 'PUT',
        url: `/api/winners/${own.id}`,
        payload: { name: own.name, percent: own.percent, position: own.position, isActive: false },
      });
      expectStatus(response, 200);
    }
    expect(await effective(h.U4)).toMatchObject({ source: 'global', ids: [first.id, second.id, third.id] });

    // Reactivating one own makes it the whole configuration (own ones do not mix with globals).
    const back = await call(h.U4, {
      method: 'PUT',
      url: `/api/winners/${ownOff.id}`,
      payload: { name: ownOff.name, percent: ownOff.percent, position: 1, isActive: true },
    });
    expectStatus(back, 200);
    expect(await effective(h.U4)).toMatchObject({ source: 'own', ids: [ownOff.id] });

    // Other players are unaffected by U4's own ones.
    expect(await effective(h.U5)).toMatchObject({ source: 'global', ids: [first.id, second.id, third.id] });

    // With the globals inactive too, a player with nothing active has none.
    for (const global of [first, second, third]) {
      const response = await call(h.admin, {
        method: 'PUT',
        url: `/api/winners/${global.id}`,
        payload: { name: global.name, percent: global.percent, position: global.position, isActive: false },
      });
      expectStatus(response, 200);
    }
    expect(await effective(h.U5)).toEqual({ source: 'none', ids: [], winners: [] });
  });

  it('a user reads only their own; the admin reads any player’s', async () => {
    expect((await effective(h.U4, h.U4.id)).source).toBe('own');
    expect(await effective(h.admin, h.U4.id)).toEqual(await effective(h.U4));
    const other = await call(h.U4, { method: 'GET', url: `/api/winners/effective?userId=${h.U5.id}` });
    expectStatus(other, 403);
    const notPlayer = await call(h.admin, { method: 'GET', url: `/api/winners/effective?userId=${h.S1.id}` });
    expectStatus(notPlayer, 400);
  });
});

describe('one prize per position (decision 035, docs/product/validation-and-errors.md#winner-form)', () => {
  const taken = (position: number) => ({
    code: 'CONFLICT',
    message: positionTaken(position),
    fieldErrors: { position: positionTaken(position) },
    requestId: expect.any(String),
  });
  const put = (caller: Member, winner: Winner, change: Record<string, unknown>) =>
    call(caller, {
      method: 'PUT',
      url: `/api/winners/${winner.id}`,
      payload: {
        name: winner.name,
        percent: winner.percent,
        position: winner.position,
        isActive: winner.isActive,
        ...change,
      },
    });
  let gold: Winner;
  let oldGold: Winner;
  /** The active configurations of an owner (null: the global ones) on a position. */
  const activeAt = async (userId: number | null, position: number) =>
    (await stored()).filter((r) => r.user_id === userId && r.position === position && r.is_active);

  // Every global configuration the tests above left is inactive; U5 has none of its own.
  it('a second active configuration on a position of the same owner is 409 "Position N already has a prize" and writes nothing', async () => {
    expect(positionTaken(4)).toBe('Position 4 already has a prize');
    gold = await created(h.U5, { name: 'Gold', percent: '50', position: 1 });
    await expectUnchanged(() => create(h.U5, { name: 'Also gold', percent: '10', position: 1 }), 409, taken(1));
    await expectUnchanged(() => create(h.admin, { name: 'Also gold', percent: '10', userId: h.U5.id }), 409, taken(1));
    await created(h.admin, { name: 'Global gold', percent: '50', position: 4 });
    await expectUnchanged(() => create(h.admin, { name: 'Global again', percent: '5', position: 4 }), 409, taken(4));
  });

  it('another owner, the global ones and an inactive configuration may share the position', async () => {
    oldGold = await created(h.U5, { name: 'Old gold', percent: '40', position: 1, isActive: false });
    await created(h.admin, { name: 'Global first', percent: '50', position: 1 });
    await created(h.admin, { name: 'For U2', percent: '50', position: 7, userId: h.U2.id });
    await created(h.admin, { name: 'For U3', percent: '50', position: 7, userId: h.U3.id });
    expect(await activeAt(h.U5.id, 1)).toHaveLength(1);
    expect(await activeAt(null, 1)).toHaveLength(1);
  });

  it('an edit onto a taken position, or re-activating onto one, is refused; an edit that keeps its own position is not', async () => {
    const silver = await created(h.U5, { name: 'Silver', percent: '30', position: 2 });
    await expectUnchanged(() => put(h.U5, silver, { position: 1 }), 409, taken(1));
    await expectUnchanged(() => put(h.U5, oldGold, { isActive: true }), 409, taken(1));
    await expectUnchanged(() => put(h.admin, oldGold, { isActive: true }), 409, taken(1));
    // Its own position is not another's: renaming, a new share, the same position.
    expectStatus(await put(h.U5, silver, { name: 'Silver 2', percent: '35' }), 200);
    // An inactive one may move onto a taken position and stay inactive.
    expectStatus(await put(h.U5, oldGold, { position: 2 }), 200);
  });

  it('a deactivated or deleted configuration no longer holds its position', async () => {
    expectStatus(await put(h.U5, gold, { isActive: false }), 200);
    const newGold = await created(h.U5, { name: 'New gold', percent: '50', position: 1 });
    expectStatus(await call(h.U5, { method: 'DELETE', url: `/api/winners/${newGold.id}` }), 200);
    expectStatus(await put(h.U5, gold, { isActive: true }), 200);
    expect((await activeAt(h.U5.id, 1)).map((r) => r.id)).toEqual([gold.id]);
  });

  it('five concurrent creates on one position leave exactly one (the database decides, not a read)', async () => {
    for (const [caller, userId, position] of [
      [h.U5, h.U5.id, 9],
      [h.admin, null, 9],
    ] as const) {
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) => create(caller, { name: `Race ${i}`, percent: '10', position })),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409]);
      for (const refused of responses.filter((r) => r.statusCode === 409)) expect(refused.json()).toEqual(taken(9));
      expect(await activeAt(userId, position)).toHaveLength(1);
    }
  });

  it('five concurrent re-activations onto one free position leave exactly one', async () => {
    const sleepers = [];
    for (let i = 0; i < 5; i++)
      sleepers.push(await created(h.U5, { name: `Sleeper ${i}`, percent: '1', position: 11, isActive: false }));
    const responses = await Promise.all(sleepers.map((w) => put(h.U5, w, { isActive: true })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await activeAt(h.U5.id, 11)).toHaveLength(1);
  });
});
