import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { formatBps } from '@lot/domain/game';

import type { EffectiveWinners, Winner, WinnerInput } from '@lot/domain/schemas/winners';
import type { Db, Tx } from '../../db/client.ts';
import { users, winnerConfigs } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { findLiveUserById } from '../users/users.repository.ts';

const columns = {
  id: winnerConfigs.id,
  userId: winnerConfigs.userId,
  name: winnerConfigs.name,
  percentBps: winnerConfigs.percentBps,
  position: winnerConfigs.position,
  description: winnerConfigs.description,
  isActive: winnerConfigs.isActive,
  createdAt: winnerConfigs.createdAt,
  username: users.username,
  fullName: users.fullName,
};

type Row = {
  id: number;
  userId: number | null;
  name: string;
  percentBps: number;
  position: number;
  description: string | null;
  isActive: boolean;
  createdAt: Date;
  username: string | null;
  fullName: string | null;
};

function toWinner(row: Row): Winner {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    percent: formatBps(row.percentBps),
    position: row.position,
    description: row.description,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    user:
      row.userId !== null && row.username !== null
        ? { id: row.userId, username: row.username, fullName: row.fullName ?? '' }
        : null,
  };
}

/** Global configurations first, then by user, each by position. */
async function selectWinners(
  db: Db | Tx,
  where: SQL | undefined,
  page = { limit: 1000, offset: 0 },
): Promise<Winner[]> {
  const rows = await db
    .select(columns)
    .from(winnerConfigs)
    .leftJoin(users, eq(users.id, winnerConfigs.userId))
    .where(where)
    .orderBy(sql`${winnerConfigs.userId} NULLS FIRST`, asc(winnerConfigs.position), asc(winnerConfigs.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(toWinner);
}

/** Admin list: everything, or one user's, or the global ones. */
export async function listWinners(
  db: Db,
  filter: { userId?: number | 'global'; limit: number; offset: number },
): Promise<{ items: Winner[]; total: number }> {
  const where =
    filter.userId === 'global'
      ? isNull(winnerConfigs.userId)
      : filter.userId !== undefined
        ? eq(winnerConfigs.userId, filter.userId)
        : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(winnerConfigs).where(where);
  return { items: await selectWinners(db, where, filter), total };
}

/** Admins manage anyone's and the global ones; a user only their own. */
function assertManages(caller: Caller, userId: number | null): void {
  if (caller.role === 'admin') return;
  if (caller.role !== 'user' || userId !== caller.id) {
    throw new AppError('FORBIDDEN', 'You can only manage your own winner settings');
  }
}

/** The player a configuration belongs to must be a live user of role user. */
async function assertPlayer(db: Db, userId: number): Promise<void> {
  const target = await findLiveUserById(db, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found', { fieldErrors: { userId: 'User not found' } });
  if (target.role !== 'user') throw AppError.field('userId', 'Winner settings belong to a user');
}

export async function listUserWinners(db: Db, caller: Caller, userId: number): Promise<Winner[]> {
  assertManages(caller, userId);
  return selectWinners(db, eq(winnerConfigs.userId, userId));
}

export async function createWinner(db: Db, caller: Caller, input: WinnerInput): Promise<Winner> {
  // A user's form has no user field: their own. An admin's empty user means global.
  const userId = input.userId ?? (caller.role === 'user' ? caller.id : null);
  assertManages(caller, userId);
  if (userId !== null) await assertPlayer(db, userId);
  const [row] = await db
    .insert(winnerConfigs)
    .values({
      userId,
      name: input.name,
      percentBps: input.percent,
      position: input.position,
      description: input.description ?? null,
      isActive: input.isActive,
    })
    .returning({ id: winnerConfigs.id });
  if (!row) throw new Error('insert returned no row');
  return getWinner(db, row.id);
}

async function getWinner(db: Db, id: number): Promise<Winner> {
  const [winner] = await selectWinners(db, eq(winnerConfigs.id, id));
  if (!winner) throw new AppError('NOT_FOUND', 'Winner configuration not found');
  return winner;
}

/** Someone else's configuration is as good as missing to a user. */
async function findManaged(db: Db, caller: Caller, id: number): Promise<Winner> {
  const winner = await getWinner(db, id);
  if (caller.role !== 'admin' && winner.userId !== caller.id) {
    throw new AppError('NOT_FOUND', 'Winner configuration not found');
  }
  return winner;
}

export async function updateWinner(db: Db, caller: Caller, id: number, input: WinnerInput): Promise<Winner> {
  const existing = await findManaged(db, caller, id);
  if (input.userId !== undefined && input.userId !== existing.userId) {
    throw AppError.field('userId', 'A winner configuration cannot move to another user');
  }
  await db
    .update(winnerConfigs)
    .set({
      name: input.name,
      percentBps: input.percent,
      position: input.position,
      description: input.description ?? null,
      isActive: input.isActive,
    })
    .where(eq(winnerConfigs.id, id));
  return getWinner(db, id);
}

export async function deleteWinner(db: Db, caller: Caller, id: number): Promise<{ message: string }> {
  await findManaged(db, caller, id);
  await db.delete(winnerConfigs).where(eq(winnerConfigs.id, id));
  return { message: 'Winner configuration deleted successfully' };
}

/**
 * The configuration a player's game uses (docs/product/roles-and-scope.md#effective-winner-settings): their own active ones sorted by
 * position; a player with none uses the active global ones.
 */
export async function effectiveWinners(db: Db | Tx, userId: number): Promise<EffectiveWinners> {
  const own = await selectWinners(db, and(eq(winnerConfigs.userId, userId), eq(winnerConfigs.isActive, true)));
  if (own.length > 0) return { source: 'own', winners: own };
  const global = await selectWinners(db, and(isNull(winnerConfigs.userId), eq(winnerConfigs.isActive, true)));
  return { source: global.length > 0 ? 'global' : 'none', winners: global };
}

export async function effectiveWinnersFor(db: Db, caller: Caller, userId: number): Promise<EffectiveWinners> {
  assertManages(caller, userId);
  if (caller.role === 'admin') await assertPlayer(db, userId);
  return effectiveWinners(db, userId);
}
