import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { buildHierarchy, listedIds, PASSWORD, userRow, type Hierarchy, type Member } from '../../test/hierarchy.ts';

/** Create, edit and delete rules (docs/product/validation-and-errors.md#user-forms, roles-and-scope.md). */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const whoAmI = (token: string, id: number) => t.request(token, { method: 'GET', url: `/api/users/${id}` });
const put = (member: Member, id: number, payload: Record<string, unknown>) =>
  t.request(member.token, { method: 'PUT', url: `/api/users/${id}`, payload });
const del = (member: Member, id: number) => t.request(member.token, { method: 'DELETE', url: `/api/users/${id}` });
const signin = (username: string, password: string) =>
  t.request(null, { method: 'POST', url: '/api/auth/signin', payload: { username, password } });
const setBalance = (id: number, cents: number) =>
  t.database.db.execute(sql`UPDATE balances SET amount = ${cents} WHERE user_id = ${id}`);

async function create(caller: Member, payload: Record<string, unknown>): Promise<Member> {
  const body = { password: PASSWORD, ...payload };
  const response = await t.request(caller.token, { method: 'POST', url: '/api/users', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  const user = response.json<Omit<Member, 'token'>>();
  return { ...user, token: await t.login(String(payload.username), body.password) };
}

describe('edit', () => {
  it('keeps the username: a different one is 400 and changes nothing', async () => {
    const before = await userRow(t, h.U2.id);
    const response = await put(h.A1, h.U2.id, { username: 'user_renamed', fullName: 'Renamed Too' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Username cannot be changed',
      code: 'VALIDATION_ERROR',
      fieldErrors: { username: 'Username cannot be changed' },
      requestId: expect.any(String),
    });
    expect(await userRow(t, h.U2.id)).toEqual(before);
    const same = await put(h.A1, h.U2.id, { username: h.U2.username, fullName: 'User Two' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ user: { username: h.U2.username } });
  });

  it('a blank password keeps the old one and the session', async () => {
    const before = await userRow(t, h.U2.id);
    const response = await put(h.A1, h.U2.id, { fullName: 'User Two Edited', password: '' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { fullName: 'User Two Edited' } });
    const after = await userRow(t, h.U2.id);
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(after?.tokenVersion).toBe(before?.tokenVersion);
    expect((await whoAmI(h.U2.token, h.U2.id)).statusCode).toBe(200);
    expect((await signin(h.U2.username, PASSWORD)).statusCode).toBe(200);
  });

  it("a new password set by a parent ends the user's tokens; the new password signs in", async () => {
    const user = await create(h.A1, { username: 'pw_target', fullName: 'Password Target' });
    const response = await put(h.A1, user.id, { password: 'brand-new-pass' });
    expect(response.statusCode, response.body).toBe(200);

    const old = await whoAmI(user.token, user.id);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await signin(user.username, PASSWORD)).statusCode).toBe(401);
    const fresh = await signin(user.username, 'brand-new-pass');
    expect(fresh.statusCode).toBe(200);
    expect((await whoAmI(fresh.json<{ accessToken: string }>().accessToken, user.id)).statusCode).toBe(200);
    // The parent's own session goes on.
    expect((await whoAmI(h.A1.token, user.id)).statusCode).toBe(200);
  });

  it('a superagent and the admin may set passwords in their scope too', async () => {
    const user = await create(h.S1, { username: 'pw_target_2', fullName: 'Password Target', parentId: h.A2.id });
    expect((await put(h.S1, user.id, { password: 'second-pass' })).statusCode).toBe(200);
    expect((await whoAmI(user.token, user.id)).statusCode).toBe(401);
    expect((await put(h.admin, user.id, { password: 'third-pass' })).statusCode).toBe(200);
    expect((await signin(user.username, 'second-pass')).statusCode).toBe(401);
    expect((await signin(user.username, 'third-pass')).statusCode).toBe(200);
  });

  it('deactivating ends tokens and sign-in; reactivating lets the user back in', async () => {
    const user = await create(h.S1, { username: 'to_deactivate', fullName: 'To Deactivate', parentId: h.S1.id });
    const response = await put(h.S1, user.id, { status: 'inactive' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { status: 'inactive' } });
    expect((await whoAmI(user.token, user.id)).statusCode).toBe(401);
    const refused = await signin(user.username, PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Your account is inactive. Please contact your administrator.' });

    expect((await put(h.S1, user.id, { status: 'active' })).statusCode).toBe(200);
    expect((await signin(user.username, PASSWORD)).statusCode).toBe(200);
    // The token from before the deactivation stays dead.
    expect((await whoAmI(user.token, user.id)).statusCode).toBe(401);
  });

  it('a profile edit without a password keeps the session', async () => {
    const response = await put(h.U4, h.U4.id, { fullName: 'User Four', shopName: '' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { shopName: null } });
    expect((await whoAmI(h.U4.token, h.U4.id)).statusCode).toBe(200);
  });

  it('an edit that sends nothing new answers the user unchanged', async () => {
    const before = await userRow(t, h.U4.id);
    const response = await put(h.S1, h.U4.id, {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { id: h.U4.id } });
    const echoed = await put(h.U4, h.U4.id, { username: h.U4.username, role: 'user' });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(await userRow(t, h.U4.id)).toEqual(before);
  });
});

describe('delete', () => {
  it('is refused (409) while the balance is not zero, and changes nothing', async () => {
    const user = await create(h.A3, { username: 'has_money', fullName: 'Has Money' });
    await setBalance(user.id, 500);
    const before = await userRow(t, user.id);
    const response = await del(h.A3, user.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'Cannot delete Has Money: their balance is $5.00. Move the funds first.',
      code: 'CONFLICT',
      requestId: expect.any(String),
    });
    expect(await userRow(t, user.id)).toEqual(before);
    expect((await whoAmI(user.token, user.id)).statusCode).toBe(200);
    expect((await whoAmI(h.admin.token, user.id)).json()).toMatchObject({ balance: { amount: '5.00' } });

    await setBalance(user.id, 0);
    expect((await del(h.A3, user.id)).statusCode).toBe(200);
  });

  it('is refused (409) while agents or users remain under the user', async () => {
    const cases: [Member, Member][] = [
      [h.S1, h.A1],
      [h.admin, h.A1],
      [h.admin, h.S2],
    ];
    for (const [caller, target] of cases) {
      const before = await userRow(t, target.id);
      const response = await del(caller, target.id);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: `Cannot delete ${target.fullName}: they still have agents or users under them.`,
        code: 'CONFLICT',
        requestId: expect.any(String),
      });
      expect(await userRow(t, target.id)).toEqual(before);
      expect(listedIds(await t.request(caller.token, { method: 'GET', url: '/api/users' }))).toContain(target.id);
    }
  });

  it('succeeds once the last child is gone (deleted children do not count)', async () => {
    const agent = await create(h.S2, { username: 'lonely_agent', fullName: 'Lonely Agent', role: 'agent' });
    const child = await create(agent, { username: 'only_child', fullName: 'Only Child' });
    expect((await del(h.S2, agent.id)).statusCode).toBe(409);
    expect((await del(agent, child.id)).statusCode).toBe(200);
    expect((await del(h.S2, agent.id)).statusCode).toBe(200);
  });

  it('removes the user from lists and reads; its token dies; its username is free again', async () => {
    const user = await create(h.S1, { username: 'Leaving_User', fullName: 'Leaving User', parentId: h.A2.id });
    const response = await del(h.S1, user.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'User deleted successfully' });

    for (const [caller, url] of [
      [h.admin, '/api/users'],
      [h.admin, '/api/users/role/user'],
      [h.S1, '/api/users'],
      [h.S1, `/api/users/parent/${h.A2.id}/role/user`],
      [h.A2, '/api/users'],
      [h.U1, '/api/users'],
    ] as const) {
      expect(
        listedIds(await t.request(caller.token, { method: 'GET', url })),
        `${caller.username} ${url}`,
      ).not.toContain(user.id);
    }
    for (const caller of [h.admin, h.S1, h.A2]) {
      const read = await whoAmI(caller.token, user.id);
      expect(read.statusCode).toBe(404);
      expect(read.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND', requestId: expect.any(String) });
      expect((await put(caller, user.id, { fullName: 'Back Again' })).statusCode).toBe(404);
      expect((await del(caller, user.id)).statusCode).toBe(404);
    }
    const stale = await whoAmI(user.token, user.id);
    expect(stale.statusCode).toBe(401);
    expect((await signin(user.username, PASSWORD)).statusCode).toBe(401);
    // The row stays for history.
    expect((await userRow(t, user.id))?.deletedAt).toBeInstanceOf(Date);

    // Case-insensitively the same name: free again once its owner is deleted.
    const again = await create(h.A2, { username: 'leaving_user', fullName: 'Second Owner', password: 'other-pass' });
    expect(again.id).not.toBe(user.id);
    const signedIn = await signin('leaving_user', 'other-pass');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ id: again.id, fullName: 'Second Owner' });
  });

  it('the admin cannot delete itself', async () => {
    const before = await userRow(t, h.admin.id);
    const response = await del(h.admin, h.admin.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: 'You cannot delete your own account' });
    expect(await userRow(t, h.admin.id)).toEqual(before);
    expect((await whoAmI(h.admin.token, h.admin.id)).statusCode).toBe(200);
  });

  it('a parent that was deleted cannot receive new children', async () => {
    const agent = await create(h.S2, { username: 'gone_agent', fullName: 'Gone Agent', role: 'agent' });
    expect((await del(h.S2, agent.id)).statusCode).toBe(200);
    const response = await t.request(h.S2.token, {
      method: 'POST',
      url: '/api/users',
      payload: { username: 'orphan_user', password: PASSWORD, fullName: 'Orphan', role: 'user', parentId: agent.id },
    });
    expect(response.statusCode).toBe(404);
    const move = await put(h.S2, h.U5.id, { parentId: agent.id });
    expect(move.statusCode).toBe(404);
    expect((await userRow(t, h.U5.id))?.parentId).toBe(h.A3.id);
  });
});
