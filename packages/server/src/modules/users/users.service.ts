import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import {
  deleteHasBalance,
  deleteHasDownline,
  deleteHasStakeInGame,
  parentRoleHasNone,
  SERVER_MESSAGES,
} from '@lot/domain/server-messages';
import { formatCents, formatMoney } from '@lot/domain/money';
import { ALLOWED_PARENT_ROLES, type Role } from '@lot/domain/roles';
import type { CreateUserInput, PublicUser, UpdateUserInput, User } from '@lot/domain/schemas/users';
import type { Caller } from '../../lib/caller.ts';
import type { Context } from '../../lib/context.ts';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { processLogo } from './logo.ts';
import { endedLeaf } from '../games/game-log-leaves.ts';
import { appendGameLeaves } from '../../lib/game-log.ts';
import { usersAccess } from './users.access.ts';
import { byCaller, changedFields, recordAudit } from '../../lib/audit.ts';
import {
  countGamesInPlay,
  countLiveChildren,
  countUsers,
  findInScope,
  findLiveUserByUsername,
  findLogo,
  findUserListRow,
  insertUser,
  isUsernameTaken,
  lockedBalance,
  selectPublicUserPage,
  selectUserPage,
  softDeleteUser,
  updateUserFields,
  userExportPageQuery,
  usersWhere,
  type Db,
  type Tx,
  type UserChanges,
  type UserListRow,
  type UserRow,
  type UsersFilter,
} from './users.repository.ts';

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

const notFound = () => new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);

async function getUser(db: Db | Tx, id: number): Promise<User> {
  const row = await findUserListRow(db, id);
  if (!row) throw notFound();
  return toUser(row);
}

/** The user with this id in the caller's scope, or a 404 exactly like a missing one. */
async function inScope(db: Db | Tx, caller: Caller, id: number, lock?: 'update'): Promise<UserRow> {
  const target = await findInScope(db, caller, id, lock);
  if (!target) throw notFound();
  return target;
}

export type ListUsersFilter = UsersFilter & { limit: number; offset: number };

/** A list narrowed to someone's children: that someone must be in the caller's scope. */
async function checkParent(db: Db, caller: Caller, parentId: number | undefined): Promise<void> {
  if (parentId !== undefined) await inScope(db, caller, parentId);
}

/** Users the caller may see (plain users: other active users' public fields, `usersAccess.list`). */
export async function listUsers(
  ctx: Context,
  filter: ListUsersFilter,
): Promise<{ items: (User | PublicUser)[]; total: number }> {
  const { db, caller } = ctx;
  const where = usersWhere(caller, filter);
  // The parent check, the count and the page are independent reads, side by side (on PostgreSQL
  // each on its own connection); nothing is answered unless the check passes.
  const page =
    caller.role === 'user'
      ? selectPublicUserPage(db, where, filter)
      : selectUserPage(db, where, filter).then((rows) => rows.map(toUser));
  const [, total, items] = await Promise.all([
    checkParent(db, caller, filter.parentId),
    countUsers(db, caller, filter, where),
    page,
  ]);
  return { items, total };
}

export async function getUserInScope(ctx: Context, id: number): Promise<User> {
  const { db, caller } = ctx;
  await inScope(db, caller, id);
  return getUser(db, id);
}

/**
 * Checks a parent for a user of `role` chosen by `caller`, locking it (FOR SHARE) so that it
 * cannot be deleted while the child is being attached.
 */
async function resolveParent(
  tx: Db | Tx,
  caller: Caller,
  role: Role,
  parentId: number | null,
): Promise<UserRow | null> {
  if (parentId === null) {
    if (ALLOWED_PARENT_ROLES[role].includes(null) && caller.role === 'admin') return null;
    throw AppError.field('parentId', role === 'agent' ? MESSAGES.superAgentRequired : MESSAGES.parentRequired);
  }
  const row = await findInScope(tx, caller, parentId, 'share');
  if (!row)
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.parentNotFound, {
      fieldErrors: { parentId: SERVER_MESSAGES.parentNotFound },
    });
  if (!ALLOWED_PARENT_ROLES[role].includes(row.role)) {
    throw AppError.field(
      'parentId',
      role === 'agent'
        ? SERVER_MESSAGES.parentMustBeSuperAgent
        : role === 'user'
          ? SERVER_MESSAGES.parentMustBeSuperAgentOrAgent
          : parentRoleHasNone(role),
    );
  }
  return row;
}

function usernameTaken(): AppError {
  return new AppError('CONFLICT', SERVER_MESSAGES.usernameInUse, {
    fieldErrors: { username: SERVER_MESSAGES.usernameInUse },
  });
}

export async function createUser(ctx: Context, input: CreateUserInput): Promise<User> {
  const { db, caller } = ctx;
  const parentId = usersAccess.create(caller, input);
  if (await findLiveUserByUsername(db, input.username)) throw usernameTaken();
  const passwordHash = await hashPassword(input.password);
  try {
    const id = await db.transaction(async (tx) => {
      const parentRow = await resolveParent(tx, caller, input.role, parentId);
      const created = await insertUser(tx, {
        username: input.username,
        passwordHash,
        fullName: input.fullName,
        shopName: input.shopName ?? null,
        role: input.role,
        status: input.status,
        parentId: parentRow?.id ?? null,
        parentRole: parentRow?.role ?? null,
      });
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'user.created',
        targetKind: 'user',
        targetId: created,
        targetUserId: created,
        details: {
          username: input.username,
          fullName: input.fullName,
          shopName: input.shopName ?? null,
          role: input.role,
          status: input.status,
          parentId: parentRow?.id ?? null,
        },
      });
      return created;
    });
    return await getUser(db, id);
  } catch (error) {
    if (isUsernameTaken(error)) throw usernameTaken();
    throw error;
  }
}

export async function updateUser(
  ctx: Context,
  id: number,
  input: UpdateUserInput,
  logo?: Buffer,
): Promise<{ message: string; user: User }> {
  const { db, caller } = ctx;
  const target = await inScope(db, caller, id);
  usersAccess.edit(caller, target, input, Boolean(logo || input.removeLogo));
  const processedLogo = logo ? await processLogo(logo) : undefined;
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
  const parentChanges = input.parentId !== undefined && input.parentId !== target.parentId;
  const endsSessions = passwordHash !== undefined || (input.status === 'inactive' && target.status !== 'inactive');

  await db.transaction(async (tx) => {
    // Re-read under lock: the user may have been deleted since the check above.
    const before = await inScope(tx, caller, id, 'update');
    const parentRow = parentChanges ? await resolveParent(tx, caller, target.role, input.parentId ?? null) : undefined;
    const changes: UserChanges = {
      ...(input.fullName !== undefined && { fullName: input.fullName }),
      ...(input.shopName !== undefined && { shopName: input.shopName }),
      ...(input.status !== undefined && { status: input.status }),
      ...(passwordHash !== undefined && { passwordHash }),
      ...(parentRow !== undefined && { parent: parentRow && { id: parentRow.id, role: parentRow.role } }),
      ...(processedLogo && { hasLogo: true }),
      ...(input.removeLogo && !processedLogo && { hasLogo: false }),
      ...(endsSessions && { endsSessions: true }),
    };
    // Which fields changed, before and after; a new password is only named, never written. The row
    // is written before the update: the chain's head is then taken before the money_daily rows a
    // parent change moves (users trigger), the order a money statement takes them in (decision 029).
    await recordAudit(tx, {
      ...byCaller(caller),
      action: input.status === 'inactive' && before.status !== 'inactive' ? 'user.deactivated' : 'user.updated',
      targetKind: 'user',
      targetId: id,
      targetUserId: id,
      details: {
        changes: changedFields(
          { fullName: before.fullName, shopName: before.shopName, status: before.status, parentId: before.parentId },
          {
            fullName: input.fullName,
            shopName: input.shopName,
            status: input.status,
            ...(parentRow !== undefined && { parentId: parentRow?.id ?? null }),
          },
        ),
        ...(passwordHash !== undefined && { passwordChanged: true }),
        ...((processedLogo || input.removeLogo) && { logo: processedLogo ? 'replaced' : 'removed' }),
      },
    });
    await updateUserFields(tx, id, changes, processedLogo ?? (input.removeLogo ? null : undefined));
  });
  ctx.events.callerChanged(id);
  return {
    message: target.id === caller.id ? MESSAGES.profileUpdated : 'User updated successfully',
    user: await getUser(db, id),
  };
}

/**
 * Soft delete: history keeps the row. Refused while money or people still hang off the user,
 * so that nothing becomes unreachable.
 */
export async function deleteUser(ctx: Context, id: number): Promise<{ message: string }> {
  const { db, caller } = ctx;
  await db.transaction(async (tx) => {
    const target = await inScope(tx, caller, id, 'update');
    usersAccess.delete(caller, target);
    const balance = await lockedBalance(tx, id);
    if (balance !== 0) {
      throw new AppError('CONFLICT', deleteHasBalance(target.fullName, formatMoney(balance)));
    }
    // A game in progress holds its pool from the first draw: money that only its player can
    // settle or get back (decision 013), so it still hangs off the user.
    if ((await countGamesInPlay(tx, id)) > 0) {
      throw new AppError('CONFLICT', deleteHasStakeInGame(target.fullName));
    }
    if ((await countLiveChildren(tx, id)) > 0) {
      throw new AppError('CONFLICT', deleteHasDownline(target.fullName));
    }
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'user.deleted',
      targetKind: 'user',
      targetId: id,
      targetUserId: id,
      details: { username: target.username, fullName: target.fullName, role: target.role },
    });
    const discarded = await softDeleteUser(tx, id, caller.id);
    for (const round of discarded) await appendGameLeaves(tx, round.id, [await endedLeaf(ctx, round, 'discarded', [])]);
  });
  ctx.events.callerChanged(id);
  return { message: SERVER_MESSAGES.userDeleted };
}

export async function getLogo(ctx: Context, id: number): Promise<{ data: Buffer; mimeType: string }> {
  const { db, caller } = ctx;
  const target = await findInScope(db, caller, id);
  const logo = target?.hasLogo ? await findLogo(db, id) : undefined;
  if (!logo) throw new AppError('NOT_FOUND', SERVER_MESSAGES.logoNotFound);
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

/** Every user of a list's filtered set, newest first, a keyset page at a time (docs/product/reports.md#exports). */
export async function userExportPages(ctx: Context, filter: UsersFilter): Promise<AsyncIterable<UserListRow[]>> {
  const { db, caller } = ctx;
  usersAccess.export(caller);
  await checkParent(db, caller, filter.parentId);
  const where = usersWhere(caller, filter);
  return keysetPages(
    (after: number | undefined, limit: number) => userExportPageQuery(db, where, after, limit),
    (row) => row.id,
  );
}
