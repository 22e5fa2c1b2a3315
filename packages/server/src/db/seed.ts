import { randomBytes } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@lot/domain/roles';
import { hashPassword } from '../modules/users/users.service.ts';
import type { Db } from './client.ts';
import { balances, users } from './schema.ts';

type NewUser = {
  username: string;
  password: string;
  fullName: string;
  role: Role;
  shopName?: string;
  parentId?: number;
};

/** Inserts a user and its zero balance. Seeding only: the API goes through the users service. */
async function insertUser(db: Db, user: NewUser): Promise<number> {
  const parentRole = user.parentId
    ? (await db.select({ role: users.role }).from(users).where(eq(users.id, user.parentId)))[0]?.role
    : undefined;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        username: user.username,
        passwordHash: await hashPassword(user.password),
        fullName: user.fullName,
        shopName: user.shopName ?? null,
        role: user.role,
        parentId: user.parentId ?? null,
        parentRole: parentRole ?? null,
      })
      .returning({ id: users.id });
    if (!row) throw new Error(`could not create ${user.username}`);
    await tx.insert(balances).values({ userId: row.id, amount: 0 });
    return row.id;
  });
}

/**
 * First start on an empty database: create the admin. Without ADMIN_PASSWORD a random one is
 * made and returned so that it can be printed once.
 */
export async function ensureAdmin(
  db: Db,
  options: { username: string; password: string | undefined },
): Promise<{ created: false } | { created: true; username: string; password: string; generated: boolean }> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return { created: false };
  const password = options.password ?? randomBytes(12).toString('base64url');
  await insertUser(db, { username: options.username, password, fullName: 'Administrator', role: 'admin' });
  return { created: true, username: options.username, password, generated: options.password === undefined };
}

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ADMIN = { username: 'admin', password: 'admin123' };

/** The demo hierarchy of DESIGN.md section 1: 1 superagent, 2 agents, 6 users. */
export const DEMO_USERS = [
  { username: 'super1', fullName: 'Sam Super', role: 'superagent', parent: null },
  { username: 'agent1', fullName: 'Alice Agent', role: 'agent', parent: 'super1' },
  { username: 'agent2', fullName: 'Bob Agent', role: 'agent', parent: 'super1' },
  { username: 'user1', fullName: 'Uma User', role: 'user', parent: 'agent1', shopName: 'Lucky Corner' },
  { username: 'user2', fullName: 'Victor Vendor', role: 'user', parent: 'agent1', shopName: 'Golden Shop' },
  { username: 'user3', fullName: 'Wendy Winner', role: 'user', parent: 'agent1', shopName: 'Star Kiosk' },
  { username: 'user4', fullName: 'Xavier Xu', role: 'user', parent: 'agent2', shopName: 'Market Stall 4' },
  { username: 'user5', fullName: 'Yara Young', role: 'user', parent: 'agent2', shopName: 'Corner Deli' },
  { username: 'user6', fullName: 'Zoe Zed', role: 'user', parent: 'super1', shopName: 'Main Street Shop' },
] as const;

/** Fills a database that has no users besides an admin with the demo hierarchy. */
export async function seedDemo(db: Db): Promise<{ seeded: boolean; adminPassword: string | null }> {
  const live = await db
    .select({ username: users.username, role: users.role })
    .from(users)
    .where(isNull(users.deletedAt));
  if (live.some((u) => u.role !== 'admin')) return { seeded: false, adminPassword: null };
  let adminPassword: string | null = null;
  if (live.length === 0) {
    await insertUser(db, { ...DEMO_ADMIN, fullName: 'Administrator', role: 'admin' });
    adminPassword = DEMO_ADMIN.password;
  }
  const ids = new Map<string, number>();
  for (const user of DEMO_USERS) {
    const parentId = user.parent ? ids.get(user.parent) : undefined;
    ids.set(user.username, await insertUser(db, { ...user, password: DEMO_PASSWORD, parentId }));
  }
  return { seeded: true, adminPassword };
}
