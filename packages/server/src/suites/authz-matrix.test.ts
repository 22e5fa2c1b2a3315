import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@lot/domain/roles';
import { queryRows } from '../db/client.ts';
import { configureWinners, gamePayload } from '../test/game-fixtures.ts';
import { PASSWORD } from '../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../test/test-app.ts';
import { expiredToken } from '../test/tokens.ts';
import { world } from '../test/world.ts';
import {
  POLICY,
  UNAUTHENTICATED_CALLERS,
  UNAUTHENTICATED_STATUS,
  type CallName,
  type Cells,
  type Outcome,
  type Relation,
  type SignedInRole,
  type Unauthenticated,
} from './authz-policy.ts';

/**
 * Issue 10, suite 1: every cell of the policy table (authz-policy.ts, written from DESIGN.md
 * section 3) against the running server: the status, and that a refused call changed nothing
 * at all (users, balances, ledger, keys, winner settings, games).
 */

type Person = { key: string; id: number; role: Role; token: string; game?: number };

let t: TestApp;
const people: Record<string, Person> = {};

/**
 *   admin, admin2
 *   S1 ─ A1 ─ U1, U2, (D: signed in, then deleted)
 *      └ A2
 *   S2 ─ A3 ─ U5
 */
const TREE: { key: string; role: Role; parent?: string }[] = [
  { key: 'admin2', role: 'admin' },
  { key: 'S1', role: 'superagent' },
  { key: 'S2', role: 'superagent' },
  { key: 'A1', role: 'agent', parent: 'S1' },
  { key: 'A2', role: 'agent', parent: 'S1' },
  { key: 'A3', role: 'agent', parent: 'S2' },
  { key: 'U1', role: 'user', parent: 'A1' },
  { key: 'U2', role: 'user', parent: 'A1' },
  { key: 'U5', role: 'user', parent: 'A3' },
  { key: 'D', role: 'user', parent: 'A1' },
];

/** Who each relation is, per caller (the policy's vocabulary made concrete). */
const RELATIONS: Record<SignedInRole | Unauthenticated, { caller: string } & Partial<Record<Relation, string>>> = {
  admin: { caller: 'admin', self: 'admin', child: 'S1', grandchild: 'A1', sibling: 'admin2', other: 'U5' },
  superagent: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  agent: { caller: 'A1', self: 'A1', child: 'U1', parent: 'S1', sibling: 'A2', other: 'U5' },
  user: { caller: 'U1', self: 'U1', parent: 'A1', sibling: 'U2', other: 'U5' },
  // Without a session: the superagent's targets; "self" is the token's owner.
  anonymous: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  expired: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  deleted: { caller: 'D', self: 'D', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
};

const PERCENT = '50.00';
const game = (userId: number) => gamePayload(userId, { numbers: [1, 2], drawn: [1], percents: [PERCENT], bet: '1.00' });

let made = 0;
/** The HTTP request of each call against a target (null for calls that name nobody). */
const REQUESTS: Record<CallName, (target: Person) => InjectOptions> = {
  'get user': (p) => ({ method: 'GET', url: `/api/users/${p.id}` }),
  'list users': () => ({ method: 'GET', url: '/api/users?limit=1000' }),
  'list children of': (p) => ({ method: 'GET', url: `/api/users/parent/${p.id}/role/user` }),
  'get balance of': (p) => ({ method: 'GET', url: `/api/balance/${p.id}` }),
  'edit full name of': (p) => ({
    method: 'PUT',
    url: `/api/users/${p.id}`,
    payload: { fullName: 'Renamed By Matrix' },
  }),
  'change role of': (p) => ({
    method: 'PUT',
    url: `/api/users/${p.id}`,
    payload: { role: p.role === 'admin' ? 'user' : 'admin' },
  }),
  deactivate: (p) => ({ method: 'PUT', url: `/api/users/${p.id}`, payload: { status: 'inactive' } }),
  delete: (p) => ({ method: 'DELETE', url: `/api/users/${p.id}` }),
  'create user under': (p) => {
    made += 1;
    return {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: `matrix_${made}`,
        password: PASSWORD,
        fullName: `Matrix ${made}`,
        role: 'user',
        parentId: p.id,
      },
    };
  },
  'top up': (p) => ({ method: 'POST', url: '/api/balance/topup', payload: { userId: p.id, amount: '1.00' } }),
  'transfer to': (p) => ({
    method: 'POST',
    url: '/api/balance/transfer',
    payload: { receiverId: p.id, amount: '1.00' },
  }),
  decrease: (p) => ({ method: 'POST', url: '/api/balance/decrease', payload: { userId: p.id, amount: '1.00' } }),
  'read winner settings of': (p) => ({ method: 'GET', url: `/api/winners/user/${p.id}` }),
  // Inactive, so that it never changes the settings the games below are settled with.
  'create winner setting for': (p) => ({
    method: 'POST',
    url: '/api/winners',
    payload: { name: 'Matrix', percent: '10.00', position: 9, isActive: false, userId: p.id },
  }),
  'sales history of': (p) => ({ method: 'GET', url: `/api/sales-history/${p.role}/${p.id}` }),
  'read game of': (p) => ({ method: 'GET', url: `/api/sales-history/${p.game ?? 0}` }),
  'record game for': (p) => ({ method: 'POST', url: '/api/sales-history', payload: game(p.id) }),
  'own balance': () => ({ method: 'GET', url: '/api/balance' }),
  transactions: () => ({ method: 'GET', url: '/api/transactions?limit=10' }),
  'all winner settings': () => ({ method: 'GET', url: '/api/winners' }),
  'sales filter': () => ({ method: 'GET', url: '/api/sales-history/filter?limit=10' }),
};

/** Fresh tokens for everyone, with the token version now stored (a deactivation ends the old ones). */
async function resignTokens() {
  const rows = await queryRows<{ id: number; token_version: number }>(
    t.database.db,
    sql`SELECT id, token_version FROM users`,
  );
  const versions = new Map(rows.map((row) => [Number(row.id), Number(row.token_version)]));
  for (const person of Object.values(people)) {
    if (person.key === 'D') continue;
    person.token = t.app.signToken({ id: person.id, tokenVersion: versions.get(person.id) ?? 0 });
  }
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  const [admin] = await queryRows<{ id: number }>(t.database.db, sql`SELECT id FROM users WHERE username = 'admin'`);
  people.admin = { key: 'admin', id: Number(admin?.id), role: 'admin', token: t.adminToken };
  for (const spec of TREE) {
    const response = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: `m_${spec.key.toLowerCase()}`,
        password: PASSWORD,
        fullName: `Member ${spec.key}`,
        role: spec.role,
        ...(spec.parent && { parentId: people[spec.parent]?.id }),
      },
    });
    expectStatus(response, 201);
    people[spec.key] = { key: spec.key, id: response.json<{ id: number }>().id, role: spec.role, token: '' };
  }
  await resignTokens();
  // D signs in for real, then the admin deletes it: its token must be worth nothing.
  const deleted = people.D as Person;
  deleted.token = await t.login('m_d', PASSWORD);
  expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${deleted.id}` }), 200);
  // Everyone holds money (so an allowed delete is a 409 that changes nothing) and the users have played.
  for (const person of Object.values(people)) if (person.key !== 'D') await fund(t, person.id, '1000.00');
  await configureWinners(t, null, [{ percent: PERCENT, position: 1 }]);
  for (const key of ['U1', 'U2', 'U5']) {
    const person = people[key] as Person;
    const response = await t.request(person.token, {
      method: 'POST',
      url: '/api/sales-history',
      payload: game(person.id),
    });
    expectStatus(response, 201);
    person.game = response.json<{ id: number }>().id;
  }
});
afterAll(() => t?.close());

type Cell = { call: CallName; caller: SignedInRole | Unauthenticated; relation: Relation; expected: Outcome };

function cells(): Cell[] {
  const all: Cell[] = [];
  for (const [call, rows] of Object.entries(POLICY) as [CallName, Record<SignedInRole, Cells>][]) {
    for (const [caller, row] of Object.entries(rows) as [SignedInRole, Cells][]) {
      for (const [relation, expected] of Object.entries(row) as [Relation, Outcome][]) {
        all.push({ call, caller, relation, expected });
      }
    }
    // Without a session: the targets the superagent's row names (their relations are the superagent's).
    for (const caller of UNAUTHENTICATED_CALLERS) {
      for (const relation of Object.keys(rows.superagent) as Relation[]) {
        all.push({ call, caller, relation, expected: UNAUTHENTICATED_STATUS });
      }
    }
  }
  return all;
}

function tokenOf(caller: Cell['caller']): string | null {
  const person = people[RELATIONS[caller].caller] as Person;
  if (caller === 'anonymous') return null;
  if (caller === 'expired') return expiredToken(t.jwtSecret, { id: person.id, tokenVersion: 0 });
  return person.token;
}

describe(`authorization matrix (${TEST_DB})`, () => {
  it('every cell of the policy table: status as written, and a refused call changes nothing', async () => {
    const failures: string[] = [];
    const all = cells();
    // The world after the last cell, when it was read: the next cell's "before".
    let known: Awaited<ReturnType<typeof world>> | undefined;
    for (const cell of all) {
      const targetKey =
        cell.relation === 'none' ? RELATIONS[cell.caller].caller : RELATIONS[cell.caller][cell.relation];
      const target = people[targetKey ?? ''];
      if (!target) throw new Error(`no ${cell.relation} for ${cell.caller}`);
      const request = REQUESTS[cell.call](target);
      const label = `${cell.call} × ${cell.caller} × ${cell.relation} (${target.key})`;
      const before = known ?? (await world(t));
      known = undefined;
      const response = await t.request(tokenOf(cell.caller), request);
      const expectedStatus = typeof cell.expected === 'number' ? cell.expected : 200;
      if (response.statusCode !== expectedStatus) {
        failures.push(
          `${label}: expected ${expectedStatus}, got ${response.statusCode} ${response.body.slice(0, 160)}`,
        );
      } else if (typeof cell.expected === 'string') {
        const listed = response.json<{ id: number }[]>().some((user) => user.id === target.id);
        if (listed !== (cell.expected === 'listed')) failures.push(`${label}: expected ${cell.expected}`);
      }
      const succeeded = response.statusCode < 300;
      if (!succeeded || request.method === 'GET') {
        const after = await world(t);
        known = after;
        for (const [table, digest] of Object.entries(before) as [keyof typeof before, string][]) {
          if (after[table] !== digest) failures.push(`${label}: answered ${response.statusCode} but changed ${table}`);
        }
      }
      if (!succeeded) {
        const body = response.json<{ message?: unknown; code?: unknown }>();
        if (typeof body.message !== 'string' || typeof body.code !== 'string') {
          failures.push(`${label}: error body ${response.body}`);
        }
      }
      // A deactivation that was allowed is undone, so the next cells meet the world as set up.
      if (cell.call === 'deactivate' && succeeded) {
        await t.database.db.execute(sql`UPDATE users SET status = 'active' WHERE id = ${target.id}`);
        await resignTokens();
        known = undefined;
      }
    }
    console.log(`authorization matrix (${TEST_DB}): ${all.length} cells checked, ${failures.length} wrong`);
    expect(failures).toEqual([]);
    expect(all.length).toBeGreaterThan(500);
  });
});
