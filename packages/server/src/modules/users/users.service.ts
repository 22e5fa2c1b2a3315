import { and, desc, eq, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents, formatMoney } from '@lot/domain/money';
import { ALLOWED_PARENT_ROLES, type Role } from '@lot/domain/roles';
import type { CreateUserInput, PublicUser, UpdateUserInput, User } from '@lot/domain/schemas/users';
import type { Db, Tx } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { balances, gameRounds, userCounts, userLogos, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { processLogo } from './logo.ts';
import { findInScope, findLiveUserByUsername, scopeCondition, type UserRow } from './users.repository.ts';

const parent = alias(users, 'parent');

const userColumns = {
  id: users.id,
  username: users.username,
  fullName: users.fullName,
  shopName: users.shopName,
  role: users.role,
  status: users.status,
  parentId: users.parentId,
  hasLogo: users.hasLogo,
  createdAt: users.createdAt,
  amount: balances.amount,
  parentUsername: parent.username,
  parentFullName: parent.fullName,
};

type UserListRow = {
  id: number;
  username: string;
  fullName: string;
  shopName: string | null;
  role: Role;
  status: 'active' | 'inactive';
  parentId: number | null;
  hasLogo: boolean;
  createdAt: Date;
  amount: number | null;
  parentUsername: string | null;
  parentFullName: string | null;
};

function toUser(row: UserListRow): User {
  return {
    id: row.id,
    username: row.username,
    fullName: row.fullName,
    shopName: row.shopName,
    role: row.role,
    status: row.status,
    parentId: row.parentId,
    hasLogo: row.hasLogo,
    createdAt: row.createdAt.toISOString(),
    balance: { amount: formatCents(row.amount ?? 0) },
    parent:
      row.parentId !== null && row.parentUsername !== null
        ? { id: row.parentId, username: row.parentUsername, fullName: row.parentFullName ?? '' }
        : null,
  };
}

/**
 * Users with balance and parent. A page is chosen by id first (from the index alone) and only
 * its rows are joined, so a deep page costs no more joins than the first.
 */
async function selectUsers(db: Db | Tx, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const chosen = page
    ? inArray(
        users.id,
        db
          .select({ id: users.id })
          .from(users)
          .where(where)
          .orderBy(desc(users.id))
          .limit(page.limit)
          .offset(page.offset),
      )
    : where;
  const rows = await db
    .select(userColumns)
    .from(users)
    .leftJoin(balances, eq(balances.userId, users.id))
    .leftJoin(parent, eq(parent.id, users.parentId))
    .where(chosen)
    .orderBy(desc(users.id));
  return rows.map(toUser);
}

async function getUser(db: Db | Tx, id: number): Promise<User> {
  const [user] = await selectUsers(db, eq(users.id, id));
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

export type ListUsersFilter = {
  role?: Role;
  parentId?: number;
  search?: string;
  status?: 'active' | 'inactive';
  limit: number;
  offset: number;
};

/**
 * How many users a list holds. Every live user of a role or status (an admin's unfiltered list)
 * comes from the kept counts; any narrower list is counted.
 */
async function countUsers(
  db: Db,
  everyLiveUser: boolean,
  filter: Pick<ListUsersFilter, 'role' | 'status'>,
  where: SQL | undefined,
): Promise<number> {
  const [row] = everyLiveUser
    ? await db
        .select({ total: sql<number>`COALESCE(sum(${userCounts.users}), 0)::int` })
        .from(userCounts)
        .where(
          and(
            filter.role ? eq(userCounts.role, filter.role) : undefined,
            filter.status ? eq(userCounts.status, filter.status) : undefined,
          ),
        )
    : await db
        .select({ total: sql<number>`count(*)::int` })
        .from(users)
        .where(where);
  return row?.total ?? 0;
}

type UsersFilter = Omit<ListUsersFilter, 'limit' | 'offset'>;

/** A list narrowed to someone's children: that someone must be in the caller's scope. */
async function checkParent(db: Db, caller: Caller, parentId: number | undefined): Promise<void> {
  if (parentId !== undefined && !(await findInScope(db, caller, parentId))) {
    throw new AppError('NOT_FOUND', 'User not found');
  }
}

/** Which users a list (or its export) holds: the caller's scope, narrowed by the filters. */
function usersWhere(caller: Caller, filter: UsersFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (caller.role === 'user') {
    conditions.push(
      isNull(users.deletedAt),
      eq(users.role, 'user'),
      eq(users.status, 'active'),
      ne(users.id, caller.id),
    );
  } else {
    conditions.push(scopeCondition(caller));
  }
  if (filter.role) conditions.push(eq(users.role, filter.role));
  if (filter.parentId !== undefined) conditions.push(eq(users.parentId, filter.parentId));
  if (filter.status) conditions.push(eq(users.status, filter.status));
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    conditions.push(sql`(${users.username} ILIKE ${pattern} OR ${users.fullName} ILIKE ${pattern})`);
  }
  return and(...conditions);
}

/**
 * Users the caller may see. Plain users see only other active users, and only their public
 * fields: enough to choose a transfer receiver.
 */
export async function listUsers(
  db: Db,
  caller: Caller,
  filter: ListUsersFilter,
): Promise<{ items: (User | PublicUser)[]; total: number }> {
  await checkParent(db, caller, filter.parentId);
  const where = usersWhere(caller, filter);
  const total = await countUsers(
    db,
    caller.role === 'admin' && filter.parentId === undefined && !filter.search,
    filter,
    where,
  );
  if (caller.role === 'user') {
    const items = await db
      .select({
        id: users.id,
        username: users.username,
        fullName: users.fullName,
        role: users.role,
        status: users.status,
      })
      .from(users)
      .where(where)
      .orderBy(users.fullName, users.id)
      .limit(filter.limit)
      .offset(filter.offset);
    return { items, total };
  }
  return { items: await selectUsers(db, where, filter), total };
}

export async function getUserInScope(db: Db, caller: Caller, id: number): Promise<User> {
  if (!(await findInScope(db, caller, id))) throw new AppError('NOT_FOUND', 'User not found');
  return getUser(db, id);
}

/** Which roles each role may create (docs/product/roles-and-scope.md#authorization-table). */
const CREATABLE: Record<Role, readonly Role[]> = {
  admin: ['admin', 'superagent', 'agent', 'user'],
  superagent: ['agent', 'user'],
  agent: ['user'],
  user: [],
};

/**
 * Checks a parent for a user of `role` chosen by `caller`, locking it (FOR SHARE) so that it
 * cannot be deleted while the child is being attached.
 */
async function resolveParent(tx: Tx, caller: Caller, role: Role, parentId: number | null): Promise<UserRow | null> {
  if (parentId === null) {
    if (ALLOWED_PARENT_ROLES[role].includes(null) && caller.role === 'admin') return null;
    throw AppError.field('parentId', role === 'agent' ? MESSAGES.superAgentRequired : MESSAGES.parentRequired);
  }
  const row = await findInScope(tx, caller, parentId, 'share');
  if (!row) throw new AppError('NOT_FOUND', 'Parent not found', { fieldErrors: { parentId: 'Parent not found' } });
  if (!ALLOWED_PARENT_ROLES[role].includes(row.role)) {
    throw AppError.field(
      'parentId',
      role === 'agent'
        ? 'Parent must be a super agent'
        : role === 'user'
          ? 'Parent must be a super agent or an agent'
          : `A ${role} has no parent`,
    );
  }
  return row;
}

/** The parent a caller gets when it may not choose: agents own their users, superagents their agents. */
function fixedParent(caller: Caller, role: Role): number | undefined {
  if (caller.role === 'agent') return caller.id;
  if (caller.role === 'superagent' && role === 'agent') return caller.id;
  return undefined;
}

function usernameTaken(): AppError {
  return new AppError('CONFLICT', MESSAGES.usernameInUse, { fieldErrors: { username: MESSAGES.usernameInUse } });
}

export async function createUser(db: Db, caller: Caller, input: CreateUserInput): Promise<User> {
  if (!CREATABLE[caller.role].includes(input.role)) throw new AppError('FORBIDDEN', MESSAGES.forbidden);
  const fixed = fixedParent(caller, input.role);
  let parentId = input.parentId ?? null;
  if (fixed !== undefined) {
    if (parentId !== null && parentId !== fixed)
      throw AppError.field('parentId', 'You cannot choose the parent of this user');
    parentId = fixed;
  }
  if (await findLiveUserByUsername(db, input.username)) throw usernameTaken();
  const passwordHash = await hashPassword(input.password);
  try {
    const id = await db.transaction(async (tx) => {
      const parentRow = await resolveParent(tx, caller, input.role, parentId);
      const [created] = await tx
        .insert(users)
        .values({
          username: input.username,
          passwordHash,
          fullName: input.fullName,
          shopName: input.shopName ?? null,
          role: input.role,
          status: input.status,
          parentId: parentRow?.id ?? null,
          parentRole: parentRow?.role ?? null,
        })
        .returning({ id: users.id });
      if (!created) throw new Error('insert returned no row');
      await tx.insert(balances).values({ userId: created.id, amount: 0 });
      return created.id;
    });
    return await getUser(db, id);
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw usernameTaken();
    throw error;
  }
}

function refuseChange<T>(field: string, given: T | undefined, current: T, message: string) {
  if (given !== undefined && given !== current) throw AppError.field(field, message);
}

export async function updateUser(
  db: Db,
  caller: Caller,
  id: number,
  input: UpdateUserInput,
  logo?: Buffer,
): Promise<{ message: string; user: User }> {
  const target = await findInScope(db, caller, id);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const self = target.id === caller.id;
  refuseChange('username', input.username, target.username, 'Username cannot be changed');
  refuseChange('role', input.role, target.role, 'Role cannot be changed');
  if (self) {
    // Everyone edits their own profile and nothing else of themselves.
    refuseChange('status', input.status, target.status, 'You cannot change your own status');
    refuseChange('parentId', input.parentId, target.parentId, 'You cannot change your own parent');
    if (input.password !== undefined)
      throw AppError.field('password', 'Use Change Password to change your own password');
  } else {
    if (logo || input.removeLogo) throw AppError.field('logo', 'Only the user can change their own logo');
    const fixed = fixedParent(caller, target.role);
    if (fixed !== undefined)
      refuseChange('parentId', input.parentId, target.parentId, 'You cannot change the parent of this user');
  }
  const processedLogo = logo ? await processLogo(logo) : undefined;
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
  const parentChanges = input.parentId !== undefined && input.parentId !== target.parentId;
  const endsSessions = passwordHash !== undefined || (input.status === 'inactive' && target.status !== 'inactive');

  await db.transaction(async (tx) => {
    // Re-read under lock: the user may have been deleted since the check above.
    const locked = await findInScope(tx, caller, id, 'update');
    if (!locked) throw new AppError('NOT_FOUND', 'User not found');
    const parentRow = parentChanges ? await resolveParent(tx, caller, target.role, input.parentId ?? null) : undefined;
    const changes: PgUpdateSetSource<typeof users> = {
      ...(input.fullName !== undefined && { fullName: input.fullName }),
      ...(input.shopName !== undefined && { shopName: input.shopName }),
      ...(input.status !== undefined && { status: input.status }),
      ...(passwordHash !== undefined && { passwordHash }),
      ...(parentRow !== undefined && { parentId: parentRow?.id ?? null, parentRole: parentRow?.role ?? null }),
      ...(processedLogo && { hasLogo: true }),
      ...(input.removeLogo && !processedLogo && { hasLogo: false }),
      ...(endsSessions && { tokenVersion: sql`${users.tokenVersion} + 1` }),
    };
    // A form may send nothing new (or only the unchanged username and role); Drizzle refuses an empty SET.
    if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, id));
    if (processedLogo) {
      await tx
        .insert(userLogos)
        .values({ userId: id, ...processedLogo })
        .onConflictDoUpdate({ target: userLogos.userId, set: { ...processedLogo, updatedAt: new Date() } });
    } else if (input.removeLogo) {
      await tx.delete(userLogos).where(eq(userLogos.userId, id));
    }
  });
  return {
    message: self ? MESSAGES.profileUpdated : 'User updated successfully',
    user: await getUser(db, id),
  };
}

/**
 * Soft delete: history keeps the row. Refused while money or people still hang off the user,
 * so that nothing becomes unreachable.
 */
export async function deleteUser(db: Db, caller: Caller, id: number): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    const target = await findInScope(tx, caller, id, 'update');
    if (!target) throw new AppError('NOT_FOUND', 'User not found');
    if (target.id === caller.id) throw new AppError('FORBIDDEN', 'You cannot delete your own account');
    const [balance] = await tx
      .select({ amount: balances.amount })
      .from(balances)
      .where(eq(balances.userId, id))
      .for('update');
    if (balance && balance.amount !== 0) {
      throw new AppError(
        'CONFLICT',
        `Cannot delete ${target.fullName}: their balance is ${formatMoney(balance.amount)}. Move the funds first.`,
      );
    }
    // A game in progress holds its pool from the first draw: money that only its player can
    // settle or get back (decision 013), so it still hangs off the user.
    const [held] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(gameRounds)
      .where(and(eq(gameRounds.userId, id), eq(gameRounds.status, 'drawing')));
    if (held && held.count > 0) {
      throw new AppError(
        'CONFLICT',
        `Cannot delete ${target.fullName}: a game in progress holds their stake. Finish or void it first.`,
      );
    }
    const [children] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.parentId, id), isNull(users.deletedAt)));
    if (children && children.count > 0) {
      throw new AppError('CONFLICT', `Cannot delete ${target.fullName}: they still have agents or users under them.`);
    }
    await tx
      .update(users)
      .set({ deletedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, id));
    // A game they opened but never drew holds nothing; nobody could ever end it, so it ends here.
    await tx
      .update(gameRounds)
      .set({ status: 'discarded', voidReason: 'The player was deleted', voidedBy: caller.id, endedAt: new Date() })
      .where(and(eq(gameRounds.userId, id), eq(gameRounds.status, 'open')));
  });
  return { message: 'User deleted successfully' };
}

export async function getLogo(db: Db, caller: Caller, id: number): Promise<{ data: Buffer; mimeType: string }> {
  const target = await findInScope(db, caller, id);
  const [logo] = target?.hasLogo
    ? await db
        .select({ data: userLogos.data, mimeType: userLogos.mimeType })
        .from(userLogos)
        .where(eq(userLogos.userId, id))
    : [];
  if (!logo) throw new AppError('NOT_FOUND', 'Logo not found');
  return logo;
}

/** The columns of a users export: what the users screens show. */
export const USER_EXPORT_COLUMNS: ExportColumn<UserListRow>[] = [
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Username', type: 'text', value: (row) => row.username },
  { header: 'Full name', type: 'text', value: (row) => row.fullName },
  { header: 'Role', type: 'text', value: (row) => row.role },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Shop', type: 'text', value: (row) => row.shopName },
  { header: 'Parent', type: 'text', value: (row) => row.parentUsername },
  { header: 'Balance', type: 'money', value: (row) => row.amount ?? 0 },
  { header: 'Created', type: 'time', value: (row) => row.createdAt },
];

/**
 * Every user of a list's filtered set, newest first, a keyset page at a time
 * (docs/product/reports.md#exports). Only the people who manage accounts export them.
 */
export async function userExportPages(
  db: Db,
  caller: Caller,
  filter: UsersFilter,
): Promise<AsyncIterable<UserListRow[]>> {
  if (caller.role === 'user') throw new AppError('FORBIDDEN', 'Only the admin, super agents and agents export users');
  await checkParent(db, caller, filter.parentId);
  const where = usersWhere(caller, filter);
  return keysetPages(
    (after: number | undefined, limit: number) =>
      db
        .select(userColumns)
        .from(users)
        .leftJoin(balances, eq(balances.userId, users.id))
        .leftJoin(parent, eq(parent.id, users.parentId))
        .where(and(where, after === undefined ? undefined : lt(users.id, after)))
        .orderBy(desc(users.id))
        .limit(limit),
    (row) => row.id,
  );
}
