import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { formatBps } from '@lot/domain/game';
import type { EffectiveWinners, Winner } from '@lot/domain/schemas/winners';
import type { Db, Tx } from '../../db/client.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { users, winnerConfigs } from '../../db/schema.ts';

/** The winner configurations' queries, shared by the winners service and the game that copies them. */

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
export async function selectWinners(
  db: Db | Tx,
  where: SQL | undefined,
  page = { limit: 1000, offset: 0 },
): Promise<Winner[]> {
  const rows = await winnersQuery(db, where, page);
  return rows.map(toWinner);
}

/** The statement of `selectWinners`, for its snapshot. */
export function winnersQuery(db: Db | Tx, where: SQL | undefined, page = { limit: 1000, offset: 0 }) {
  return db
    .select(columns)
    .from(winnerConfigs)
    .leftJoin(users, eq(users.id, winnerConfigs.userId))
    .where(where)
    .orderBy(sql`${winnerConfigs.userId} NULLS FIRST`, asc(winnerConfigs.position), asc(winnerConfigs.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The conditions `effectiveWinners` reads a player's own, then the global, active configurations by. */
export const activeOwnWinners = (userId: number): SQL =>
  and(eq(winnerConfigs.userId, userId), eq(winnerConfigs.isActive, true)) as SQL;
export const activeGlobalWinners = (): SQL =>
  and(isNull(winnerConfigs.userId), eq(winnerConfigs.isActive, true)) as SQL;

/**
 * The configuration a player's game uses (docs/product/roles-and-scope.md#effective-winner-settings): their own active ones sorted by
 * position; a player with none uses the active global ones.
 */
export async function effectiveWinners(db: Db | Tx, userId: number): Promise<EffectiveWinners> {
  const own = await selectWinners(db, activeOwnWinners(userId));
  if (own.length > 0) return { source: 'own', winners: own };
  const global = await selectWinners(db, activeGlobalWinners());
  return { source: global.length > 0 ? 'global' : 'none', winners: global };
}

/** Whose configurations an admin's list shows: everyone's, one user's, or the global ones. */
export type WinnerOwner = number | 'global' | undefined;

export const ownedBy = (owner: WinnerOwner): SQL | undefined =>
  owner === 'global' ? isNull(winnerConfigs.userId) : owner !== undefined ? eq(winnerConfigs.userId, owner) : undefined;

/** One page of the admin list, and how many there are in all. */
export async function selectWinnerPage(
  db: Db | Tx,
  owner: WinnerOwner,
  page: { limit: number; offset: number },
): Promise<{ items: Winner[]; total: number }> {
  const where = ownedBy(owner);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(winnerConfigs).where(where);
  return { items: await selectWinners(db, where, page), total };
}

/** A user's own configurations, active or not. */
export const selectUserWinners = (db: Db | Tx, userId: number): Promise<Winner[]> =>
  selectWinners(db, eq(winnerConfigs.userId, userId));

/** One configuration, or undefined. */
export async function findWinner(db: Db | Tx, id: number): Promise<Winner | undefined> {
  const [winner] = await selectWinners(db, eq(winnerConfigs.id, id));
  return winner;
}

/** The columns a winner form sets. */
export type WinnerValues = {
  name: string;
  percentBps: number;
  position: number;
  description: string | null;
  isActive: boolean;
};

/** Inserts a configuration (`userId` null: a global one) and answers its id. */
export async function insertWinner(db: Db | Tx, userId: number | null, values: WinnerValues): Promise<number> {
  const [row] = await db
    .insert(winnerConfigs)
    .values({ userId, ...values })
    .returning({ id: winnerConfigs.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

export async function updateWinnerRow(db: Db | Tx, id: number, values: WinnerValues): Promise<void> {
  await db.update(winnerConfigs).set(values).where(eq(winnerConfigs.id, id));
}

/** Deletes a configuration; false when it was already gone. */
export async function deleteWinnerRow(db: Db | Tx, id: number): Promise<boolean> {
  const deleted = await db.delete(winnerConfigs).where(eq(winnerConfigs.id, id)).returning({ id: winnerConfigs.id });
  return deleted.length > 0;
}

/** The database refused a second active configuration on a position (decision 035's unique index). */
export const isPositionTaken = (error: unknown): boolean => pgErrorCode(error) === UNIQUE_VIOLATION;
