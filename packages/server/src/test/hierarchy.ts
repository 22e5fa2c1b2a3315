import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Role } from '@lot/domain/roles';
import { users } from '../db/schema.ts';
import { ADMIN, type TestApp } from './test-app.ts';

/** Every member of the hierarchy signs in with this password. */
export const PASSWORD = 'secret-pass';

export type Member = { id: number; username: string; fullName: string; role: Role; token: string };

type Key = 'S1' | 'S2' | 'A1' | 'A2' | 'A3' | 'U1' | 'U2' | 'U3' | 'U4' | 'U5' | 'U6';

type Spec = { username: string; fullName: string; role: Role; parent?: Key; status?: 'inactive' };

/**
 * The hierarchy the users suites share:
 *   S1 ─ A1 ─ U1, U2, U6 (inactive)
 *      ├ A2 ─ U3
 *      └ U4
 *   S2 ─ A3 ─ U5
 */
const SPECS: Record<Key, Spec> = {
  S1: { username: 'super_one', fullName: 'Super One', role: 'superagent' },
  S2: { username: 'super_two', fullName: 'Super Two', role: 'superagent' },
  A1: { username: 'agent_one', fullName: 'Agent One', role: 'agent', parent: 'S1' },
  A2: { username: 'agent_two', fullName: 'Agent Two', role: 'agent', parent: 'S1' },
  A3: { username: 'agent_three', fullName: 'Agent Three', role: 'agent', parent: 'S2' },
  U1: { username: 'user_one', fullName: 'User One', role: 'user', parent: 'A1' },
  U2: { username: 'user_two', fullName: 'User Two', role: 'user', parent: 'A1' },
  U3: { username: 'user_three', fullName: 'User Three', role: 'user', parent: 'A2' },
  U4: { username: 'user_four', fullName: 'User Four', role: 'user', parent: 'S1' },
  U5: { username: 'user_five', fullName: 'User Five', role: 'user', parent: 'A3' },
  U6: { username: 'user_six', fullName: 'User Six', role: 'user', parent: 'A1', status: 'inactive' },
};

/** The members by key; U6 is inactive, so its token is empty (it cannot sign in). */
export type Hierarchy = Record<Key | 'admin', Member>;

function expectStatus(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
}

/** Creates the hierarchy through the API as the admin and signs every active member in. */
export async function buildHierarchy(t: TestApp): Promise<Hierarchy> {
  const ids: Partial<Record<Key, number>> = {};
  for (const [key, spec] of Object.entries(SPECS) as [Key, Spec][]) {
    const response = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: spec.username,
        password: PASSWORD,
        fullName: spec.fullName,
        role: spec.role,
        ...(spec.status && { status: spec.status }),
        ...(spec.parent && { parentId: ids[spec.parent] }),
      },
    });
    expectStatus(response, 201);
    ids[key] = response.json<{ id: number }>().id;
  }
  const [admin] = await t.database.db
    .select({ id: users.id, fullName: users.fullName })
    .from(users)
    .where(eq(users.username, ADMIN.username));
  if (!admin) throw new Error('no admin row');
  const members = await Promise.all(
    (Object.entries(SPECS) as [Key, Spec][]).map(async ([key, spec]): Promise<[Key, Member]> => [
      key,
      {
        id: ids[key] as number,
        username: spec.username,
        fullName: spec.fullName,
        role: spec.role,
        token: spec.status === 'inactive' ? '' : await t.login(spec.username, PASSWORD),
      },
    ]),
  );
  return {
    ...(Object.fromEntries(members) as Record<Key, Member>),
    admin: { id: admin.id, username: ADMIN.username, fullName: admin.fullName, role: 'admin', token: t.adminToken },
  };
}

/**
 * One more active account created through the API by the admin, with a token signed for it
 * directly (no sign-in round trip): for tests that grow random hierarchies.
 */
export async function createMember(
  t: TestApp,
  spec: { username: string; fullName: string; role: Role; parentId?: number },
): Promise<Member> {
  const response = await t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { ...spec, password: PASSWORD },
  });
  expectStatus(response, 201);
  const id = response.json<{ id: number }>().id;
  return {
    id,
    username: spec.username,
    fullName: spec.fullName,
    role: spec.role,
    token: await t.app.context.tokens.openSession({ id, tokenVersion: 0 }),
  };
}

/** The ids of a list response, sorted, for comparing with an expected set. */
export function listedIds(response: LightMyRequestResponse): number[] {
  expectStatus(response, 200);
  return response
    .json<{ id: number }[]>()
    .map((user) => user.id)
    .sort((a, b) => a - b);
}

export function idsOf(...members: Member[]): number[] {
  return members.map((member) => member.id).sort((a, b) => a - b);
}

/** The user's row as stored, to prove a refused call changed nothing. */
export async function userRow(t: TestApp, id: number) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row;
}
