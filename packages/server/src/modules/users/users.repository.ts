import { and, desc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Role } from '@lot/domain/roles';
import { usernameKey } from '@lot/domain/username-key';
import { type Db, type Tx } from '../../db/client.ts';
import { selectPrepared } from '../../db/prepared.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { containsPattern } from '../../db/sql.ts';
import { balances, gameRounds, userCounts, userLogos, users } from '../../db/schema.ts';
import { scopeCondition, usersAccess, type Scoped } from './users.access.ts';

export type { Db, Tx };

export type UserRow = typeof users.$inferSelect;

export async function findLiveUserById(db: Db | Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return row;
}

/** The live user whose username reads as `username` does (decision 047: `usernameKey`). */
export async function findLiveUserByUsername(db: Db | Tx, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.usernameKey, usernameKey(username)), isNull(users.deletedAt)));
  return row;
}

/** The user with this id, if the caller may reach it. */
const idInScope = (caller: Scoped, id: number) => and(eq(users.id, id), scopeCondition(caller));

/** The user with this id if the caller may reach it; `lock` takes a row lock for the transaction. */
export async function findInScope(
  db: Db | Tx,
  caller: Scoped,
  id: number,
  lock?: 'update' | 'share',
): Promise<UserRow | undefined> {
  const query = db.select().from(users).where(idInScope(caller, id));
  const [row] = await selectPrepared(lock ? query.for(lock) : query);
  return row;
}

/** A statement reading the role of the user with this id if the caller may reach it (no row otherwise). */
export function roleInScope(caller: Scoped, id: number): SQL {
  return sql`SELECT ${users.role} FROM ${users} WHERE ${idInScope(caller, id)}`;
}

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

function selectUserRows(db: Db | Tx) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(balances, eq(balances.userId, users.id))
    .leftJoin(parent, eq(parent.id, users.parentId));
}

/** A user with balance and parent, as lists and exports read it. */
export type UserListRow = Awaited<ReturnType<ReturnType<typeof selectUserRows>['execute']>>[number];

export type UsersFilter = { role?: Role; parentId?: number; search?: string; status?: 'active' | 'inactive' };
type Page = { limit: number; offset: number };

/** Which users a list (or its export) holds: the access map's, narrowed by the filters. */
export function usersWhere(caller: Caller, filter: UsersFilter): SQL | undefined {
  const conditions = usersAccess.list(caller);
  if (filter.role) conditions.push(eq(users.role, filter.role));
  if (filter.parentId !== undefined) conditions.push(eq(users.parentId, filter.parentId));
  if (filter.status) conditions.push(eq(users.status, filter.status));
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    // A plain user's picker shows no shop names, so it does not match them (usersAccess.list).
    const shop = caller.role === 'user' ? sql`` : sql` OR ${users.shopName} ILIKE ${pattern}`;
    conditions.push(sql`(${users.username} ILIKE ${pattern} OR ${users.fullName} ILIKE ${pattern}${shop})`);
  }
  return and(...conditions);
}

/**
 * Users with balance and parent, newest first. A page is chosen by id first (from the index
 * alone) and only its rows are joined, so a deep page costs no more joins than the first.
 */
export function usersQuery(db: Db | Tx, where: SQL | undefined, page?: Page) {
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
  return selectUserRows(db).where(chosen).orderBy(desc(users.id));
}

/** A page of other users' public fields, by name: what a plain user's list shows. */
export function publicUsersQuery(db: Db, where: SQL | undefined, page: Page) {
  return db
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
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * How many users a list holds. Every live user of a role or status (an admin's list, neither a
 * parent's nor searched) comes from the counts the triggers keep; any narrower list is counted.
 */
export function countUsersQuery(db: Db, caller: Caller, filter: UsersFilter, where: SQL | undefined) {
  const everyLiveUser = caller.role === 'admin' && filter.parentId === undefined && !filter.search;
  return everyLiveUser
    ? db
        .select({ total: sql<number>`COALESCE(sum(${userCounts.users}), 0)::int` })
        .from(userCounts)
        .where(
          and(
            filter.role ? eq(userCounts.role, filter.role) : undefined,
            filter.status ? eq(userCounts.status, filter.status) : undefined,
          ),
        )
    : db
        .select({ total: sql<number>`count(*)::int` })
        .from(users)
        .where(where);
}

/** One keyset page of an export, newest first, after the user id `after`. */
export function userExportPageQuery(db: Db, where: SQL | undefined, after: number | undefined, limit: number) {
  return selectUserRows(db)
    .where(and(where, after === undefined ? undefined : lt(users.id, after)))
    .orderBy(desc(users.id))
    .limit(limit);
}

/** A new user and its zero balance; answers its id. */
export async function insertUser(tx: Tx, values: typeof users.$inferInsert): Promise<number> {
  const [created] = await tx.insert(users).values(values).returning({ id: users.id });
  if (!created) throw new Error('insert returned no row');
  await tx.insert(balances).values({ userId: created.id, amount: 0 });
  return created.id;
}

export type Logo = { data: Buffer; mimeType: string };

/** Writes a user's changes and their logo (`null` removes it, `undefined` leaves it). */
async function updateUserRow(
  tx: Tx,
  id: number,
  changes: PgUpdateSetSource<typeof users>,
  logo: Logo | null | undefined,
) {
  // A form may send nothing new (or only the unchanged username and role); Drizzle refuses an empty SET.
  if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, id));
  if (logo) {
    await tx
      .insert(userLogos)
      .values({ userId: id, ...logo })
      .onConflictDoUpdate({ target: userLogos.userId, set: { ...logo, updatedAt: sql`now()` } });
  } else if (logo === null) {
    await tx.delete(userLogos).where(eq(userLogos.userId, id));
  }
}

export async function findLogo(db: Db, id: number): Promise<Logo | undefined> {
  const [logo] = await db
    .select({ data: userLogos.data, mimeType: userLogos.mimeType })
    .from(userLogos)
    .where(eq(userLogos.userId, id));
  return logo;
}

/** The user's balance, its row locked for the deleting transaction. */
export async function lockedBalance(tx: Tx, id: number): Promise<number> {
  const [balance] = await tx
    .select({ amount: balances.amount })
    .from(balances)
    .where(eq(balances.userId, id))
    .for('update');
  return balance?.amount ?? 0;
}

/** How many of the user's games are being drawn (each holds its pool). */
export async function countGamesInPlay(tx: Tx, id: number): Promise<number> {
  const [held] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(gameRounds)
    .where(and(eq(gameRounds.userId, id), eq(gameRounds.status, 'drawing')));
  return held?.count ?? 0;
}

export async function countLiveChildren(tx: Tx, id: number): Promise<number> {
  const [children] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.parentId, id), isNull(users.deletedAt)));
  return children?.count ?? 0;
}

/**
 * Soft delete (history keeps the row); ends the user's sessions and the games they opened but never
 * drew, and answers those games (their ends go into the game log, decision 081).
 */
export async function softDeleteUser(tx: Tx, id: number, by: number): Promise<(typeof gameRounds.$inferSelect)[]> {
  await tx
    .update(users)
    .set({ deletedAt: sql`now()`, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id));
  // A game they opened but never drew holds nothing; nobody could ever end it, so it ends here.
  return tx
    .update(gameRounds)
    .set({ status: 'discarded', voidReason: 'The player was deleted', voidedBy: by, endedAt: sql`now()` })
    .where(and(eq(gameRounds.userId, id), eq(gameRounds.status, 'open')))
    .returning();
}

/** One user as the screens show it (with balance and parent), or undefined. */
export async function findUserListRow(db: Db | Tx, id: number): Promise<UserListRow | undefined> {
  const [row] = await usersQuery(db, eq(users.id, id));
  return row;
}

/** A page of a list: full rows, or other users' public fields (a plain user's list). */
export const selectUserPage = (db: Db, where: SQL | undefined, page: Page) =>
  selectPrepared(usersQuery(db, where, page));
export const selectPublicUserPage = (db: Db, where: SQL | undefined, page: Page) =>
  selectPrepared(publicUsersQuery(db, where, page));

/** How many users a list holds (`countUsersQuery`). */
export async function countUsers(db: Db, caller: Caller, filter: UsersFilter, where: SQL | undefined): Promise<number> {
  const [counted] = await selectPrepared(countUsersQuery(db, caller, filter, where));
  return counted?.total ?? 0;
}

/** The fields a user's edit sets (undefined: unchanged). */
export type UserChanges = {
  fullName?: string;
  shopName?: string | null;
  status?: UserRow['status'];
  passwordHash?: string;
  /** A new parent (null: none), with its role. */
  parent?: { id: number; role: Role } | null;
  hasLogo?: boolean;
  /** Ends the user's sessions: its token version moves on. */
  endsSessions?: boolean;
};

/** Writes a user's edit and their logo (`null` removes it, `undefined` leaves it). */
export function updateUserFields(tx: Tx, id: number, changes: UserChanges, logo: Logo | null | undefined) {
  const set: PgUpdateSetSource<typeof users> = {
    ...(changes.fullName !== undefined && { fullName: changes.fullName }),
    ...(changes.shopName !== undefined && { shopName: changes.shopName }),
    ...(changes.status !== undefined && { status: changes.status }),
    ...(changes.passwordHash !== undefined && { passwordHash: changes.passwordHash }),
    ...(changes.parent !== undefined && {
      parentId: changes.parent?.id ?? null,
      parentRole: changes.parent?.role ?? null,
    }),
    ...(changes.hasLogo !== undefined && { hasLogo: changes.hasLogo }),
    ...(changes.endsSessions && { tokenVersion: sql`${users.tokenVersion} + 1` }),
  };
  return updateUserRow(tx, id, set, logo);
}

/** The database refused a second live user of a username (its unique index). */
export const isUsernameTaken = (error: unknown): boolean => pgErrorCode(error) === UNIQUE_VIOLATION;
