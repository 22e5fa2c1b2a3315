import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { buildHierarchy, listedIds, PASSWORD, userRow, type Hierarchy, type Member } from '../../test/hierarchy.ts';

/** docs/product/validation-and-errors.md#user-forms as the server says it; bad input is a 400 (never a 500). */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const post = (member: Member, payload: unknown) =>
  t.request(member.token, { method: 'POST', url: '/api/users', payload: payload as Record<string, unknown> });
const put = (member: Member, id: number | string, payload: Record<string, unknown>) =>
  t.request(member.token, { method: 'PUT', url: `/api/users/${id}`, payload });

const valid = { username: 'valid_name', password: PASSWORD, fullName: 'Valid Name', role: 'user' };

function expectFieldError(response: { statusCode: number; json: () => unknown }, field: string, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    message,
    code: 'VALIDATION_ERROR',
    fieldErrors: { [field]: message },
    requestId: expect.any(String),
  });
}

describe('create form messages (docs/product/validation-and-errors.md#user-forms)', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['missing username', { username: undefined }, 'username', 'Username is required'],
    ['empty username', { username: '' }, 'username', 'Username is required'],
    ['blank username', { username: '   ' }, 'username', 'Username is required'],
    ['null username', { username: null }, 'username', 'Username is required'],
    ['short username', { username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [
      'spaces in username',
      { username: 'bad name' },
      'username',
      'Username can only contain letters, numbers, and underscores',
    ],
    [
      'symbols in username',
      { username: 'bad-name!' },
      'username',
      'Username can only contain letters, numbers, and underscores',
    ],
    ['missing password', { password: undefined }, 'password', 'Password is required'],
    ['empty password', { password: '' }, 'password', 'Password is required'],
    ['short password', { password: '12345' }, 'password', 'Password must be at least 6 characters'],
    ['missing full name', { fullName: undefined }, 'fullName', 'Full Name is required'],
    ['empty full name', { fullName: '' }, 'fullName', 'Full Name is required'],
    ['blank full name', { fullName: '  ' }, 'fullName', 'Full Name is required'],
    ['short full name', { fullName: 'A' }, 'fullName', 'Full Name must be at least 2 characters'],
    ['unknown role', { role: 'boss' }, 'role', MESSAGES.roleInvalid],
    ['unknown status', { status: 'sleeping' }, 'status', MESSAGES.statusInvalid],
    ['bad parent id', { parentId: 'abc' }, 'parentId', MESSAGES.parentInvalid],
  ];

  for (const [name, change, field, message] of cases) {
    it(`${name}: '${message}'`, async () => {
      // The agent's form is the loosest; the server applies the strictest rules to everyone
      // (docs/product/validation-and-errors.md#user-forms).
      for (const caller of [h.admin, h.A1]) {
        const response = await post(caller, { ...valid, ...change });
        expectFieldError(response, field, message);
      }
    });
  }

  it('ids that are not positive integers are 400 on parentId', async () => {
    for (const parentId of [-1, 0, 1.5, '1.5', true, {}, [1]]) {
      const response = await post(h.admin, { ...valid, parentId });
      expect(response.statusCode, JSON.stringify(parentId)).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        fieldErrors: { parentId: expect.any(String) },
        requestId: expect.any(String),
      });
    }
  });

  it('reports every failing field, the first one leading', async () => {
    const response = await post(h.admin, { username: 'x', password: '1', fullName: '', role: 'user' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Username must be at least 3 characters',
      code: 'VALIDATION_ERROR',
      fieldErrors: {
        username: 'Username must be at least 3 characters',
        password: 'Password must be at least 6 characters',
        fullName: 'Full Name is required',
      },
      requestId: expect.any(String),
    });
  });

  it('an empty body, a body that is not JSON and a body that is not an object are 400', async () => {
    const empty = await post(h.admin, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fieldErrors: {
        username: 'Username is required',
        password: 'Password is required',
        fullName: 'Full Name is required',
      },
      requestId: expect.any(String),
    });
    const broken = await t.request(h.admin.token, {
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'BAD_REQUEST' });
    for (const payload of ['[]', '"alice"', 'null', '42']) {
      const response = await t.request(h.admin.token, {
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toHaveProperty('message');
    }
  });

  it('nothing was created by the refused calls', async () => {
    expect(listedIds(await t.request(h.admin.token, { method: 'GET', url: '/api/users?search=valid_name' }))).toEqual(
      [],
    );
  });
});

describe('edit form messages', () => {
  it("'Full Name is required', 'Full Name must be at least 2 characters', 'Password must be at least 6 characters'", async () => {
    const before = await userRow(t, h.U1.id);
    expectFieldError(await put(h.A1, h.U1.id, { fullName: '' }), 'fullName', 'Full Name is required');
    expectFieldError(
      await put(h.A1, h.U1.id, { fullName: 'B' }),
      'fullName',
      'Full Name must be at least 2 characters',
    );
    expectFieldError(
      await put(h.A1, h.U1.id, { password: '12345' }),
      'password',
      'Password must be at least 6 characters',
    );
    expectFieldError(await put(h.U1, h.U1.id, { fullName: ' ' }), 'fullName', 'Full Name is required');
    expectFieldError(await put(h.admin, h.U1.id, { status: 'gone' }), 'status', MESSAGES.statusInvalid);
    expect(await userRow(t, h.U1.id)).toEqual(before);
  });
});

describe('duplicate usernames', () => {
  it("are 409 'already in use', case-insensitively", async () => {
    const first = await post(h.admin, { ...valid, username: 'alice', fullName: 'Alice' });
    expect(first.statusCode, first.body).toBe(201);
    for (const [caller, username] of [
      [h.admin, 'alice'],
      [h.admin, 'ALICE'],
      [h.A1, 'Alice'],
      [h.S1, 'aLiCe'],
      [h.admin, 'SUPER_ONE'],
    ] as const) {
      const response = await post(caller, { ...valid, username, fullName: 'Other Alice', parentId: h.A1.id });
      expect(response.statusCode, username).toBe(409);
      expect(response.json<{ message: string }>().message).toContain('already in use');
      expect(response.json()).toEqual({
        message: 'Username is already in use',
        code: 'CONFLICT',
        fieldErrors: { username: 'Username is already in use' },
        requestId: expect.any(String),
      });
    }
    expect(listedIds(await t.request(h.admin.token, { method: 'GET', url: '/api/users?search=alice' }))).toEqual([
      first.json<{ id: number }>().id,
    ]);
  });

  it('racing creations of the same name: one 201, the other 409', async () => {
    const responses = await Promise.all(
      ['racer', 'RACER', 'Racer'].map((username) => post(h.admin, { ...valid, username, fullName: 'Racer' })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json<{ message: string }>().message).toContain('already in use');
    }
  });
});

describe('fields nobody may send', () => {
  it('unknown fields on create are 400 and nothing is created', async () => {
    for (const extra of [
      { balance: 1000 },
      { balance: { amount: '1000.00' } },
      { hasLogo: true },
      { id: 1 },
      { tokenVersion: 0 },
    ]) {
      const response = await post(h.admin, { ...valid, username: 'extra_field', ...extra });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      const [key] = Object.keys(extra);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        fieldErrors: { [key as string]: expect.any(String) },
        requestId: expect.any(String),
      });
    }
    expect(listedIds(await t.request(h.admin.token, { method: 'GET', url: '/api/users?search=extra_field' }))).toEqual(
      [],
    );
  });

  it('unknown fields on edit are 400 and change nothing', async () => {
    const before = await userRow(t, h.U2.id);
    for (const extra of [{ balance: 1000 }, { hasLogo: true }, { deletedAt: null }, { passwordHash: 'x' }]) {
      const response = await put(h.admin, h.U2.id, { fullName: 'Changed Name', ...extra });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect(await userRow(t, h.U2.id)).toEqual(before);
  });

  it('unknown query parameters and bad filters are 400', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'status=gone', 'role=admin', 'sort=id']) {
      const response = await t.request(h.admin.token, { method: 'GET', url: `/api/users?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('bad ids and roles in paths', () => {
  const badIds = ['abc', '-1', '1.5', '0', '1e400', '99999999999', '%20', 'null'];

  it('are 400 on every call that takes an id, never a 500', async () => {
    for (const id of badIds) {
      const calls = [
        { method: 'GET' as const, url: `/api/users/${id}` },
        { method: 'GET' as const, url: `/api/users/${id}/logo` },
        { method: 'PUT' as const, url: `/api/users/${id}`, payload: { fullName: 'Whoever' } },
        { method: 'DELETE' as const, url: `/api/users/${id}` },
        { method: 'GET' as const, url: `/api/users/parent/${id}/role/user` },
      ];
      for (const call of calls) {
        const response = await t.request(h.admin.token, call);
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          requestId: expect.any(String),
        });
      }
    }
  });

  it('a bad role is 400', async () => {
    for (const url of ['/api/users/role/boss', '/api/users/role/ADMIN', `/api/users/parent/${h.S1.id}/role/agents`]) {
      for (const caller of [h.admin, h.U1]) {
        const response = await t.request(caller.token, { method: 'GET', url });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: MESSAGES.roleInvalid,
          requestId: expect.any(String),
        });
      }
    }
  });

  it('an id that does not exist is 404', async () => {
    for (const call of [
      { method: 'GET' as const, url: '/api/users/999999' },
      { method: 'PUT' as const, url: '/api/users/999999', payload: { fullName: 'Nobody' } },
      { method: 'DELETE' as const, url: '/api/users/999999' },
      { method: 'GET' as const, url: '/api/users/999999/logo' },
      { method: 'GET' as const, url: '/api/users/parent/999999/role/user' },
    ]) {
      const response = await t.request(h.admin.token, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
    }
  });
});
