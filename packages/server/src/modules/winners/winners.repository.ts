import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { formatBps } from '@lot/domain/game';
import type { EffectiveWinners, Winner } from '@lot/domain/schemas/winners';
import type { Db, Tx } from '../../db/client.ts';
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
