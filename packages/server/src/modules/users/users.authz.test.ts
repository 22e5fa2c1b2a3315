import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import {
  buildHierarchy,
  idsOf,
  listedIds,
  PASSWORD,
  userRow,
  type Hierarchy,
  type Member,
} from '../../test/hierarchy.ts';
import { multipart } from '../../test/multipart.ts';

/** The users rows of docs/product/roles-and-scope.md#authorization-table: every role, allowed and refused. */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const get = (member: Member, url: string) => t.request(member.token, { method: 'GET', url });
const put = (member: Member, target: Member | number, payload: Record<string, unknown>) =>
  t.request(member.token, {
    method: 'PUT',
    url: `/api/users/${typeof target === 'number' ? target : target.id}`,
    payload,
  });
const post = (member: Member, payload: Record<string, unknown>) =>
  t.request(member.token, { method: 'POST', url: '/api/users', payload });
const del = (member: Member, target: Member | number) =>
  t.request(member.token, { method: 'DELETE', url: `/api/users/${typeof target === 'number' ? target : target.id}` });

const NOT_FOUND = { message: 'User not found', code: 'NOT_FOUND', requestId: expect.any(String) };
const FORBIDDEN = { message: 'Forbidden', code: 'FORBIDDEN', requestId: expect.any(String) };

let created = 0;
/** A fresh user body with a unique username. */
function newUser(fields: Record<string, unknown> = {}) {
  created += 1;
  return { username: `made_${created}`, password: PASSWORD, fullName: `Made ${created}`, ...fields };
}

describe('GET /api/users, /role/{role}, /parent/{id}/role/{role}: lists per role', () => {
  it('needs a token', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('admin: everyone, by role and by parent', async () => {
    const { admin, S1, S2, A1, A2, A3, U1, U2, U3, U4, U5, U6 } = h;
    const all = await get(admin, '/api/users');
    expect(listedIds(all)).toEqual(idsOf(admin, S1, S2, A1, A2, A3, U1, U2, U3, U4, U5, U6));
    expect(all.headers['x-total-count']).toBe('12');
    expect(listedIds(await get(admin, '/api/users/role/admin'))).toEqual(idsOf(admin));
    expect(listedIds(await get(admin, '/api/users/role/superagent'))).toEqual(idsOf(S1, S2));
    expect(listedIds(await get(admin, '/api/users/role/agent'))).toEqual(idsOf(A1, A2, A3));
    expect(listedIds(await get(admin, '/api/users/role/user'))).toEqual(idsOf(U1, U2, U3, U4, U5, U6));
    expect(listedIds(await get(admin, `/api/users/parent/${S1.id}/role/agent`))).toEqual(idsOf(A1, A2));
    expect(listedIds(await get(admin, `/api/users/parent/${S1.id}/role/user`))).toEqual(idsOf(U4));
    expect(listedIds(await get(admin, `/api/users/parent/${A1.id}/role/user`))).toEqual(idsOf(U1, U2, U6));
    expect(listedIds(await get(admin, `/api/users/parent/${S2.id}/role/agent`))).toEqual(idsOf(A3));
  });

  it('superagent: itself, its agents and the users under it or its agents', async () => {
    const { S1, S2, A1, A2, A3, U1, U2, U3, U4, U5, U6 } = h;
    const all = await get(S1, '/api/users');
    expect(listedIds(all)).toEqual(idsOf(S1, A1, A2, U1, U2, U3, U4, U6));
    expect(all.headers['x-total-count']).toBe('8');
    expect(listedIds(await get(S1, '/api/users/role/agent'))).toEqual(idsOf(A1, A2));
    expect(listedIds(await get(S1, '/api/users/role/user'))).toEqual(idsOf(U1, U2, U3, U4, U6));
    expect(listedIds(await get(S1, '/api/users/role/superagent'))).toEqual(idsOf(S1));
    expect(listedIds(await get(S1, '/api/users/role/admin'))).toEqual([]);
    expect(listedIds(await get(S1, `/api/users/parent/${S1.id}/role/agent`))).toEqual(idsOf(A1, A2));
    expect(listedIds(await get(S1, `/api/users/parent/${S1.id}/role/user`))).toEqual(idsOf(U4));
    expect(listedIds(await get(S1, `/api/users/parent/${A1.id}/role/user`))).toEqual(idsOf(U1, U2, U6));
    expect(listedIds(await get(S1, `/api/users/parent/${A2.id}/role/user`))).toEqual(idsOf(U3));

    expect(listedIds(await get(S2, '/api/users'))).toEqual(idsOf(S2, A3, U5));
    expect(listedIds(await get(S2, '/api/users/role/user'))).toEqual(idsOf(U5));
    expect(listedIds(await get(S2, `/api/users/parent/${A3.id}/role/user`))).toEqual(idsOf(U5));
  });

  it('agent: itself and its direct users', async () => {
    const { A1, A2, A3, U1, U2, U3, U5, U6 } = h;
    const all = await get(A1, '/api/users');
    expect(listedIds(all)).toEqual(idsOf(A1, U1, U2, U6));
    expect(all.headers['x-total-count']).toBe('4');
    expect(listedIds(await get(A1, '/api/users/role/user'))).toEqual(idsOf(U1, U2, U6));
    expect(listedIds(await get(A1, '/api/users/role/agent'))).toEqual(idsOf(A1));
    expect(listedIds(await get(A1, '/api/users/role/superagent'))).toEqual([]);
    expect(listedIds(await get(A1, `/api/users/parent/${A1.id}/role/user`))).toEqual(idsOf(U1, U2, U6));
    expect(listedIds(await get(A2, '/api/users'))).toEqual(idsOf(A2, U3));
    expect(listedIds(await get(A3, '/api/users'))).toEqual(idsOf(A3, U5));
  });

  it('user: the other active users of role user, public fields only', async () => {
    const { U1, U2, U3, U4, U5 } = h;
    const all = await get(U1, '/api/users');
    // Not U1 itself, not the inactive U6, and across hierarchies: any active user is a receiver.
    expect(listedIds(all)).toEqual(idsOf(U2, U3, U4, U5));
    expect(all.headers['x-total-count']).toBe('4');
    for (const user of all.json<Record<string, unknown>[]>()) {
      expect(Object.keys(user).sort()).toEqual(['fullName', 'id', 'role', 'status', 'username']);
      expect(user).toMatchObject({ role: 'user', status: 'active' });
    }
    expect(all.json()).toContainEqual({
      id: U2.id,
      username: U2.username,
      fullName: U2.fullName,
      role: 'user',
      status: 'active',
    });
    expect(listedIds(await get(U1, '/api/users/role/user'))).toEqual(idsOf(U2, U3, U4, U5));
    expect(listedIds(await get(U1, '/api/users/role/agent'))).toEqual([]);
    expect(listedIds(await get(U1, '/api/users/role/superagent'))).toEqual([]);
    expect(listedIds(await get(U1, '/api/users?status=inactive'))).toEqual([]);
    expect(listedIds(await get(U5, '/api/users'))).toEqual(idsOf(U1, U2, U3, U4));
  });

  it('a parent outside the caller scope is 404', async () => {
    const { S1, S2, A1, A2, A3, U1, U2, U5 } = h;
    const cases: [Member, Member, string][] = [
      [S1, A3, 'user'],
      [S1, S2, 'agent'],
      [S1, U5, 'user'],
      [S2, A1, 'user'],
      [S2, S1, 'agent'],
      [A1, A2, 'user'],
      [A1, S1, 'agent'],
      [A3, A1, 'user'],
      [U1, A1, 'user'],
      [U1, U2, 'user'],
    ];
    for (const [caller, parent, role] of cases) {
      const response = await get(caller, `/api/users/parent/${parent.id}/role/${role}`);
      expect(response.statusCode, `${caller.username} → ${parent.username}`).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('managers see the whole record with balance and parent', async () => {
    const { admin, S1, A1, U1 } = h;
    for (const caller of [admin, S1, A1]) {
      const listed = (await get(caller, '/api/users/role/user')).json<{ id: number }[]>();
      expect(listed.find((user) => user.id === U1.id)).toEqual({
        id: U1.id,
        username: 'user_one',
        fullName: 'User One',
        shopName: null,
        role: 'user',
        status: 'active',
        parentId: A1.id,
        hasLogo: false,
        createdAt: expect.any(String),
        balance: { amount: '0.00' },
        parent: { id: A1.id, username: 'agent_one', fullName: 'Agent One' },
      });
    }
  });

  it('filters by status and search, and pages with X-Total-Count', async () => {
    const { admin, S1, S2, A1, U1, U2, U3, U4, U5, U6 } = h;
    expect(listedIds(await get(A1, '/api/users?status=inactive'))).toEqual(idsOf(U6));
    expect(listedIds(await get(A1, '/api/users/role/user?status=active'))).toEqual(idsOf(U1, U2));
    // Username or full name, case-insensitive.
    expect(listedIds(await get(S1, '/api/users?search=ONE'))).toEqual(idsOf(S1, A1, U1));
    expect(listedIds(await get(U2, '/api/users?search=user%20f'))).toEqual(idsOf(U4, U5));
    // '_' is a literal underscore, not a LIKE wildcard ('Administrator', 'agent_three' would match 'r?').
    expect(listedIds(await get(admin, '/api/users?search=r_'))).toEqual(idsOf(S1, S2, U1, U2, U3, U4, U5, U6));
    // A searched page counts every match, and so does one past the end.
    const searched = await get(admin, '/api/users?search=r_&limit=3&offset=3');
    expect(listedIds(searched)).toEqual(idsOf(U1, U2, U3));
    expect(searched.headers['x-total-count']).toBe('8');
    const pastTheEnd = await get(admin, '/api/users?search=r_&limit=3&offset=9');
    expect([listedIds(pastTheEnd), pastTheEnd.headers['x-total-count']]).toEqual([[], '8']);
    const unsearchedPastTheEnd = await get(A1, '/api/users/role/user?limit=3&offset=9');
    expect([listedIds(unsearchedPastTheEnd), unsearchedPastTheEnd.headers['x-total-count']]).toEqual([[], '3']);

    const full = (await get(admin, '/api/users')).json<{ id: number }[]>().map((user) => user.id);
    const pages: number[] = [];
    for (let offset = 0; offset < full.length; offset += 5) {
      const page = await get(admin, `/api/users?limit=5&offset=${offset}`);
      expect(page.headers['x-total-count']).toBe(String(full.length));
      pages.push(...page.json<{ id: number }[]>().map((user) => user.id));
    }
    expect(pages).toEqual(full);
    const filtered = await get(S1, '/api/users/role/user?limit=2');
    expect(filtered.json()).toHaveLength(2);
    expect(filtered.headers['x-total-count']).toBe('5');
  });

  it("searches shop names too, and narrows to a parent's people by status", async () => {
    const { admin, S1, A1, A2, A3, U1, U2, U3, U5, U6 } = h;
    for (const [member, shop] of [
      [U3, 'Corner Lotto'],
      [U5, 'Corner Lotto Two'],
    ] as const) {
      expect((await put(admin, member, { shopName: shop })).statusCode).toBe(200);
    }
    expect(listedIds(await get(admin, '/api/users/role/user?search=corner'))).toEqual(idsOf(U3, U5));
    // In the caller's scope only, counted like any search.
    const mine = await get(S1, '/api/users/role/user?search=CORNER%20lotto');
    expect([listedIds(mine), mine.headers['x-total-count']]).toEqual([idsOf(U3), '1']);
    // A plain user's picker does not show shop names, so it does not match them.
    expect(listedIds(await get(U1, '/api/users?search=corner'))).toEqual([]);

    expect(listedIds(await get(admin, `/api/users/role/user?parentId=${A1.id}`))).toEqual(idsOf(U1, U2, U6));
    const inactive = await get(admin, `/api/users/role/user?parentId=${A1.id}&status=inactive`);
    expect([listedIds(inactive), inactive.headers['x-total-count']]).toEqual([idsOf(U6), '1']);
    expect(listedIds(await get(S1, `/api/users/role/user?parentId=${A2.id}`))).toEqual(idsOf(U3));
    // A parent outside the caller's scope is not found, for the list and its export.
    expect((await get(S1, `/api/users/role/user?parentId=${A3.id}`)).json()).toEqual(NOT_FOUND);
    expect((await get(S1, `/api/users/role/user/export?format=csv&parentId=${A3.id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/users/{id}', () => {
  it('answers inside the caller scope and 404 outside it', async () => {
    const { admin, S1, S2, A1, A2, A3, U1, U2, U3, U4, U5, U6 } = h;
    const everyone = [admin, S1, S2, A1, A2, A3, U1, U2, U3, U4, U5, U6];
    const scope: [Member, Member[]][] = [
      [admin, everyone],
      [S1, [S1, A1, A2, U1, U2, U3, U4, U6]],
      [S2, [S2, A3, U5]],
      [A1, [A1, U1, U2, U6]],
      [A2, [A2, U3]],
      [A3, [A3, U5]],
      [U1, [U1]],
      [U5, [U5]],
    ];
    for (const [caller, reachable] of scope) {
      for (const target of everyone) {
        const response = await get(caller, `/api/users/${target.id}`);
        const label = `${caller.username} → ${target.username}`;
        if (reachable.includes(target)) {
          expect(response.statusCode, label).toBe(200);
          expect(response.json<{ id: number }>().id).toBe(target.id);
        } else {
          expect(response.statusCode, label).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND);
        }
      }
    }
  });

  it('carries balance and parent', async () => {
    const response = await get(h.admin, `/api/users/${h.U4.id}`);
    expect(response.json()).toMatchObject({
      id: h.U4.id,
      parentId: h.S1.id,
      balance: { amount: '0.00' },
      parent: { id: h.S1.id, username: 'super_one', fullName: 'Super One' },
    });
    expect(response.json()).not.toHaveProperty('passwordHash');
    expect((await get(h.S1, `/api/users/${h.S1.id}`)).json()).toMatchObject({ parentId: null, parent: null });
  });
});

describe('POST /api/users', () => {
  it('user: 403, whatever the body, and nothing is created', async () => {
    for (const body of [newUser({ role: 'user' }), newUser({ role: 'agent' }), {}]) {
      const response = await post(h.U1, body);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
    }
    expect(listedIds(await get(h.admin, '/api/users?search=made_'))).toEqual([]);
  });

  it('superagent: an agent, whose parent is forced to itself', async () => {
    const response = await post(h.S1, newUser({ role: 'agent' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ role: 'agent', parentId: h.S1.id, balance: { amount: '0.00' } });
    const explicit = await post(h.S1, newUser({ role: 'agent', parentId: h.S1.id }));
    expect(explicit.statusCode).toBe(201);
    expect(explicit.json()).toMatchObject({ parentId: h.S1.id });

    const other = newUser({ role: 'agent', parentId: h.S2.id });
    const refused = await post(h.S1, other);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fieldErrors: { parentId: expect.any(String) },
      requestId: expect.any(String),
    });
    expect(listedIds(await get(h.admin, `/api/users?search=${other.username}`))).toEqual([]);
  });

  it('superagent: a user under itself or one of its agents', async () => {
    const own = await post(h.S1, newUser({ role: 'user', parentId: h.S1.id }));
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ role: 'user', parentId: h.S1.id });
    const underAgent = await post(h.S1, newUser({ role: 'user', parentId: h.A2.id }));
    expect(underAgent.statusCode).toBe(201);
    expect(underAgent.json()).toMatchObject({ role: 'user', parentId: h.A2.id, parent: { id: h.A2.id } });
  });

  it("superagent: another superagent's agent as parent is 404, no parent is 400, a user as parent is 400", async () => {
    const foreign = newUser({ role: 'user', parentId: h.A3.id });
    const response = await post(h.S1, foreign);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });

    const orphan = await post(h.S1, newUser({ role: 'user' }));
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json()).toEqual({
      message: 'Parent is required',
      code: 'VALIDATION_ERROR',
      fieldErrors: { parentId: 'Parent is required' },
      requestId: expect.any(String),
    });
    const underUser = await post(h.S1, newUser({ role: 'user', parentId: h.U4.id }));
    expect(underUser.statusCode).toBe(400);
    expect(underUser.json()).toMatchObject({ fieldErrors: { parentId: expect.any(String) } });
    expect(listedIds(await get(h.admin, `/api/users?search=${foreign.username}`))).toEqual([]);
  });

  it('superagent: no superagents or admins', async () => {
    for (const role of ['superagent', 'admin']) {
      const response = await post(h.S1, newUser({ role }));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
    }
  });

  it('agent: only users, whose parent is forced to itself', async () => {
    const response = await post(h.A1, newUser({ role: 'user' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ role: 'user', parentId: h.A1.id });
    // The role defaults to user.
    const implicit = await post(h.A1, newUser({ parentId: h.A1.id }));
    expect(implicit.statusCode).toBe(201);
    expect(implicit.json()).toMatchObject({ role: 'user', parentId: h.A1.id });

    for (const parent of [h.A2, h.S1, h.A3]) {
      const refused = await post(h.A1, newUser({ role: 'user', parentId: parent.id }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ fieldErrors: { parentId: expect.any(String) } });
    }
    for (const role of ['agent', 'superagent', 'admin']) {
      const refused = await post(h.A1, newUser({ role }));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(FORBIDDEN);
    }
  });

  it('admin: any role; an agent needs a superagent parent', async () => {
    const superagent = await post(h.admin, newUser({ role: 'superagent' }));
    expect(superagent.statusCode, superagent.body).toBe(201);
    expect(superagent.json()).toMatchObject({ role: 'superagent', parentId: null, parent: null });
    const agent = await post(h.admin, newUser({ role: 'agent', parentId: h.S2.id }));
    expect(agent.statusCode).toBe(201);
    expect(agent.json()).toMatchObject({ role: 'agent', parentId: h.S2.id });
    const user = await post(h.admin, newUser({ role: 'user', parentId: h.A3.id }));
    expect(user.statusCode).toBe(201);
    expect(user.json()).toMatchObject({ role: 'user', parentId: h.A3.id });
    const admin = await post(h.admin, newUser({ role: 'admin' }));
    expect(admin.statusCode).toBe(201);
    expect(admin.json()).toMatchObject({ role: 'admin', parentId: null });

    const noParent = await post(h.admin, newUser({ role: 'agent' }));
    expect(noParent.statusCode).toBe(400);
    expect(noParent.json()).toEqual({
      message: 'Super Agent is required',
      code: 'VALIDATION_ERROR',
      fieldErrors: { parentId: 'Super Agent is required' },
      requestId: expect.any(String),
    });
    for (const parent of [h.A1, h.U1, h.admin]) {
      const refused = await post(h.admin, newUser({ role: 'agent', parentId: parent.id }));
      expect(refused.statusCode, parent.username).toBe(400);
      expect(refused.json()).toMatchObject({
        message: 'Parent must be a super agent',
        fieldErrors: { parentId: 'Parent must be a super agent' },
      });
    }
    for (const role of ['superagent', 'admin']) {
      const refused = await post(h.admin, newUser({ role, parentId: h.S1.id }));
      expect(refused.statusCode).toBe(400);
    }
    const underUser = await post(h.admin, newUser({ role: 'user', parentId: h.U1.id }));
    expect(underUser.statusCode).toBe(400);
  });
});

describe('PUT /api/users/{id}', () => {
  it('admin: anyone', async () => {
    for (const target of [h.S2, h.A3, h.U5]) {
      const response = await put(h.admin, target, { shopName: `Shop of ${target.username}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        message: 'User updated successfully',
        user: { id: target.id, shopName: `Shop of ${target.username}` },
      });
    }
    // Moving an agent to another superagent.
    const agent = (await post(h.admin, newUser({ role: 'agent', parentId: h.S1.id }))).json<{ id: number }>();
    const moved = await put(h.admin, agent.id, { parentId: h.S2.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ user: { parentId: h.S2.id } });
    const invalid = await put(h.admin, agent.id, { parentId: h.A1.id });
    expect(invalid.statusCode).toBe(400);
  });

  it('superagent: its scope, including moving a user within it', async () => {
    const { S1, A1, A2, A3, U3, U4 } = h;
    for (const target of [A1, U3, U4]) {
      const response = await put(S1, target, { fullName: `${target.fullName}`, shopName: 'S1 shop' });
      expect(response.statusCode, response.body).toBe(200);
    }
    const moved = await put(S1, U3, { parentId: A1.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ user: { parentId: A1.id, parent: { id: A1.id } } });
    const back = await put(S1, U3, { parentId: A2.id });
    expect(back.json()).toMatchObject({ user: { parentId: A2.id } });
    const toSelf = await put(S1, U4, { parentId: A2.id });
    expect(toSelf.statusCode).toBe(200);
    expect((await put(S1, U4, { parentId: S1.id })).statusCode).toBe(200);

    // Out of scope as a parent: 404, and nothing changes.
    const before = await userRow(t, U3.id);
    const outside = await put(S1, U3, { parentId: A3.id });
    expect(outside.statusCode).toBe(404);
    expect(await userRow(t, U3.id)).toEqual(before);
    const none = await put(S1, U4, { parentId: null });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: 'Parent is required' });
    // An agent's parent is the superagent itself.
    const agentMove = await put(S1, A1, { parentId: h.S2.id });
    expect(agentMove.statusCode).toBe(400);
    expect((await userRow(t, A1.id))?.parentId).toBe(S1.id);
  });

  it("superagent: the other superagent's agents and users are 404", async () => {
    for (const target of [h.S2, h.A3, h.U5, h.admin]) {
      const before = await userRow(t, target.id);
      const response = await put(h.S1, target, { fullName: 'Taken Over' });
      expect(response.statusCode, target.username).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect(await userRow(t, target.id)).toEqual(before);
    }
  });

  it('agent: its direct users, parent fixed; others 404', async () => {
    const { A1, A2, S1, U1, U3, U4, U5 } = h;
    const response = await put(A1, U1, { fullName: 'User One', shopName: 'A1 shop' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { shopName: 'A1 shop' } });

    const before = await userRow(t, U1.id);
    const move = await put(A1, U1, { parentId: A2.id });
    expect(move.statusCode).toBe(400);
    expect(move.json()).toMatchObject({ fieldErrors: { parentId: expect.any(String) } });
    expect(await userRow(t, U1.id)).toEqual(before);

    for (const target of [U3, U4, U5, A2, S1]) {
      const beforeOther = await userRow(t, target.id);
      const refused = await put(A1, target, { fullName: 'Taken Over' });
      expect(refused.statusCode, target.username).toBe(404);
      expect(refused.json()).toEqual(NOT_FOUND);
      expect(await userRow(t, target.id)).toEqual(beforeOther);
    }
  });

  it('user: itself only, profile fields only', async () => {
    const { U1, U2, A1 } = h;
    const own = await put(U1, U1, { fullName: 'User One', shopName: 'My Shop' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ message: 'Profile updated successfully', user: { shopName: 'My Shop' } });

    for (const target of [U2, A1]) {
      const refused = await put(U1, target, { fullName: 'Taken Over' });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual(NOT_FOUND);
    }
  });

  it('nobody changes their own role, status or parent (400, nothing changed)', async () => {
    const attempts: [Member, Record<string, unknown>][] = [
      [h.U1, { fullName: 'Promoted', role: 'admin' }],
      [h.U1, { fullName: 'Promoted', role: 'agent' }],
      [h.U1, { fullName: 'Promoted', status: 'inactive' }],
      [h.U1, { fullName: 'Promoted', parentId: h.A2.id }],
      [h.U1, { fullName: 'Promoted', parentId: null }],
      [h.U1, { fullName: 'Promoted', password: 'another-password' }],
      [h.A1, { fullName: 'Promoted', status: 'inactive' }],
      [h.A1, { fullName: 'Promoted', parentId: h.S2.id }],
      [h.A1, { fullName: 'Promoted', role: 'superagent' }],
      [h.S1, { fullName: 'Promoted', status: 'inactive' }],
      [h.S1, { fullName: 'Promoted', role: 'admin' }],
      [h.admin, { fullName: 'Promoted', status: 'inactive' }],
      [h.admin, { fullName: 'Promoted', role: 'user' }],
    ];
    for (const [member, payload] of attempts) {
      const before = await userRow(t, member.id);
      const response = await put(member, member, payload);
      expect(response.statusCode, `${member.username} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        fieldErrors: expect.any(Object),
        requestId: expect.any(String),
      });
      expect(await userRow(t, member.id)).toEqual(before);
    }
    const role = await put(h.U1, h.U1, { role: 'admin' });
    expect(role.json()).toEqual({
      message: 'Role cannot be changed',
      code: 'VALIDATION_ERROR',
      fieldErrors: { role: 'Role cannot be changed' },
      requestId: expect.any(String),
    });
    // The session is untouched: the user still reads itself as a user.
    expect((await get(h.U1, `/api/users/${h.U1.id}`)).json()).toMatchObject({ role: 'user', status: 'active' });
  });

  it("nobody changes another user's role or username", async () => {
    for (const [caller, target] of [
      [h.admin, h.U1],
      [h.S1, h.A1],
      [h.A1, h.U2],
    ] as const) {
      const before = await userRow(t, target.id);
      const role = await put(caller, target, { role: 'superagent' });
      expect(role.statusCode).toBe(400);
      expect(role.json()).toMatchObject({ fieldErrors: { role: 'Role cannot be changed' } });
      const username = await put(caller, target, { username: 'renamed_user' });
      expect(username.statusCode).toBe(400);
      expect(username.json()).toMatchObject({ fieldErrors: { username: 'Username cannot be changed' } });
      expect(await userRow(t, target.id)).toEqual(before);
    }
    // The whole record echoed back unchanged is fine (forms send everything).
    const echo = await put(h.admin, h.U2, { username: h.U2.username, role: 'user', fullName: h.U2.fullName });
    expect(echo.statusCode).toBe(200);
  });
});

describe('DELETE /api/users/{id}', () => {
  it('user: 403, even on itself, and nothing changes', async () => {
    for (const target of [h.U1, h.U2]) {
      const before = await userRow(t, target.id);
      const response = await del(h.U1, target);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
      expect(await userRow(t, target.id)).toEqual(before);
    }
  });

  it('agent: its direct users; anyone else is 404', async () => {
    const mine = (await post(h.A1, newUser())).json<{ id: number }>();
    for (const target of [h.U3, h.U4, h.U5, h.A2, h.S1]) {
      const before = await userRow(t, target.id);
      const response = await del(h.A1, target);
      expect(response.statusCode, target.username).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect(await userRow(t, target.id)).toEqual(before);
    }
    const response = await del(h.A1, mine.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'User deleted successfully' });
  });

  it("superagent: its scope; the other superagent's people are 404", async () => {
    const agent = (await post(h.S1, newUser({ role: 'agent' }))).json<{ id: number }>();
    const user = (await post(h.S1, newUser({ parentId: h.A2.id }))).json<{ id: number }>();
    for (const target of [h.S2, h.A3, h.U5, h.admin]) {
      const before = await userRow(t, target.id);
      const response = await del(h.S1, target);
      expect(response.statusCode, target.username).toBe(404);
      expect(await userRow(t, target.id)).toEqual(before);
    }
    expect((await del(h.S1, user.id)).statusCode).toBe(200);
    expect((await del(h.S1, agent.id)).statusCode).toBe(200);
  });

  it('admin: anyone but itself', async () => {
    const superagent = (await post(h.admin, newUser({ role: 'superagent' }))).json<{ id: number }>();
    expect((await del(h.admin, superagent.id)).statusCode).toBe(200);

    const before = await userRow(t, h.admin.id);
    const self = await del(h.admin, h.admin);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({
      message: 'You cannot delete your own account',
      code: 'FORBIDDEN',
      requestId: expect.any(String),
    });
    expect(await userRow(t, h.admin.id)).toEqual(before);
    for (const member of [h.S1, h.A1]) {
      expect((await del(member, member)).statusCode).toBe(403);
      expect((await userRow(t, member.id))?.deletedAt).toBeNull();
    }
  });
});

describe('GET /api/users/{id}/logo', () => {
  it('is served inside the caller scope and 404 outside it', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    for (const owner of [h.U3, h.U5]) {
      const form = multipart(
        { fullName: owner.fullName },
        { logo: { filename: 'logo.png', contentType: 'image/png', data: png } },
      );
      const upload = await t.request(owner.token, { method: 'PUT', url: `/api/users/${owner.id}`, ...form });
      expect(upload.statusCode, upload.body).toBe(200);
    }
    const { admin, S1, S2, A1, A2, A3, U1, U3, U5 } = h;
    const cases: [Member, Member, number][] = [
      [admin, U3, 200],
      [S1, U3, 200],
      [A2, U3, 200],
      [U3, U3, 200],
      [A1, U3, 404],
      [S2, U3, 404],
      [U1, U3, 404],
      [U5, U3, 404],
      [S2, U5, 200],
      [A3, U5, 200],
      [S1, U5, 404],
      [A1, U5, 404],
    ];
    for (const [caller, owner, status] of cases) {
      const response = await get(caller, `/api/users/${owner.id}/logo?t=1`);
      expect(response.statusCode, `${caller.username} → ${owner.username}`).toBe(status);
      if (status === 200) expect(response.headers['content-type']).toBe('image/png');
    }
  });
});
