import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SalesQuery } from '@lot/domain/schemas/sales-history';
import { queryPrepared, selectPrepared, type Db, type Tx } from '../../db/client.ts';
import { gameWinners, games, salesDaily, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { olderThan, type TimeKey } from '../../lib/export.ts';
import { salesAccess, type SalesScope } from './sales-history.access.ts';

const player = alias(users, 'player');
const parent = alias(users, 'parent');

const saleColumns = {
  id: games.id,
  userId: games.userId,
  createdAt: games.createdAt,
  startRange: games.startRange,
  endRange: games.endRange,
  betAmount: games.betAmount,
  totalPrize: games.totalPrize,
  commission: games.commission,
  selectedCount: games.selectedCount,
  winnersCount: games.winnersCount,
  parentId: games.parentId,
  username: player.username,
  fullName: player.fullName,
  parentFullName: parent.fullName,
  pool: games.pool,
};

/** Games with their player and the parent recorded with them, as lists, exports and a game's page read them. */
function selectSales(db: Db | Tx) {
  return db
    .select(saleColumns)
    .from(games)
    .innerJoin(player, eq(player.id, games.userId))
    .leftJoin(parent, eq(parent.id, games.parentId));
}

export type SaleRow = Awaited<ReturnType<ReturnType<typeof selectSales>['execute']>>[number];

/** The game with this id if `readable` holds for it. */
export async function findGame(db: Db | Tx, id: number, readable: SQL | undefined) {
  const [game] = await db
    .select()
    .from(games)
    .where(and(eq(games.id, id), readable));
  return game;
}

export async function findSaleRow(db: Db | Tx, id: number): Promise<SaleRow | undefined> {
  const [row] = await selectSales(db).where(eq(games.id, id));
  return row;
}

export function findWinners(db: Db | Tx, gameId: number) {
  return db
    .select()
    .from(gameWinners)
    .where(eq(gameWinners.gameId, gameId))
    .orderBy(asc(gameWinners.position), asc(gameWinners.id));
}

export type SalesFilter = Pick<SalesQuery, 'from' | 'to' | 'agentId' | 'userId'>;

/** A list's games as a condition and its date bounds; `rollup` when sales_daily describes the set. */
export type SalesSet = { where: SQL | undefined; from?: Date; toExclusive?: Date; rollup?: { superagentId?: number } };

/**
 * Which games a list (or its export) holds: the access map's conditions, narrowed by the filters
 * (agentId to one agent's users, userId to one user, the dates).
 */
export function salesSet(caller: Caller, scope: SalesScope, query: SalesFilter): SalesSet {
  const conditions = salesAccess.list(caller, scope);
  if (query.agentId !== undefined) conditions.push(eq(games.parentId, query.agentId));
  if (query.userId !== undefined) conditions.push(eq(games.userId, query.userId));
  const from = query.from ? new Date(query.from) : undefined;
  // `to` is inclusive to the millisecond (docs/product/validation-and-errors.md#date-filters: through 23:59:59.999) while the database keeps
  // microseconds: a game at 23:59:59.999500 belongs to that day, so the bound is the next millisecond.
  const toExclusive = query.to ? new Date(Date.parse(query.to) + 1) : undefined;
  if (from) conditions.push(gte(games.createdAt, from));
  if (toExclusive) conditions.push(lt(games.createdAt, toExclusive));
  return { where: and(...conditions), from, toExclusive, rollup: rollupOf(caller, scope, query) };
}

/** A superagent's games or everyone's, narrowed only by dates: a set the rollup describes. */
function rollupOf(caller: Caller, scope: SalesScope, query: SalesFilter): SalesSet['rollup'] {
  if (query.agentId !== undefined || query.userId !== undefined) return undefined;
  if (scope.role === 'superagent') return { superagentId: scope.id };
  return scope.role === 'all' && caller.role === 'admin' ? {} : undefined;
}

const DAY_MS = 86_400_000;

function countGames(db: Db, where: SQL | undefined) {
  return db
    .select({ total: count(), commission: sum(games.commission) })
    .from(games)
    .where(where);
}

/**
 * The statements that total a set: a count of its games, or, for a set the rollup describes,
 * whole UTC days from sales_daily plus the games of the partial days at either edge. Exact, and
 * independent of how many games the range holds.
 */
export function totalsQueries(db: Db, { where, from, toExclusive, rollup }: SalesSet) {
  if (!rollup) return { games: countGames(db, where) };
  const { superagentId } = rollup;
  const firstDay = from ? Math.ceil(from.getTime() / DAY_MS) * DAY_MS : undefined;
  const endDay = toExclusive ? Math.floor(toExclusive.getTime() / DAY_MS) * DAY_MS : undefined;
  const scope = superagentId === undefined ? undefined : eq(games.superagentId, superagentId);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return {
      games: countGames(
        db,
        and(scope, from && gte(games.createdAt, from), toExclusive && lt(games.createdAt, toExclusive)),
      ),
    };
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const edges = [
    from && firstDay !== undefined
      ? and(gte(games.createdAt, from), lt(games.createdAt, new Date(firstDay)))
      : undefined,
    toExclusive && endDay !== undefined
      ? and(gte(games.createdAt, new Date(endDay)), lt(games.createdAt, toExclusive))
      : undefined,
  ].filter((edge) => edge !== undefined);
  return {
    days: db
      .select({
        total: sql<string>`COALESCE(sum(${salesDaily.games}), 0)::text`,
        commission: sum(salesDaily.commission),
      })
      .from(salesDaily)
      .where(
        and(
          superagentId === undefined ? undefined : eq(salesDaily.superagentId, superagentId),
          firstDay !== undefined ? gte(salesDaily.day, day(firstDay)) : undefined,
          endDay !== undefined ? lt(salesDaily.day, day(endDay)) : undefined,
        ),
      ),
    games: edges.length > 0 ? countGames(db, and(scope, or(...edges))) : undefined,
  };
}

/** How many games a set holds and their commission (cents). */
export async function countSales(db: Db, set: SalesSet): Promise<{ total: number; commission: bigint }> {
  const queries = totalsQueries(db, set);
  // Two independent reads of disjoint time ranges, side by side.
  const [[counted], [days]] = await Promise.all([
    queries.games ? selectPrepared(queries.games) : [],
    queries.days ? selectPrepared(queries.days) : [],
  ]);
  return {
    total: Number(days?.total ?? 0) + (counted?.total ?? 0),
    commission: BigInt(days?.commission ?? 0) + BigInt(counted?.commission ?? 0),
  };
}

/** Pages that skip fewer rows than this are read from the newest end without waiting for the total. */
export const NEAR_PAGE_OFFSET = 1_000;

/**
 * One page of a set, newest first, its ids read from an index alone (a subquery of the page's own
 * statement). Past the middle of the set the ids are read from the oldest end instead, so the
 * last page costs what the first does. Nothing to read past the end. Without the total (a near
 * page, read beside the count) the page is read from the newest end.
 */
export function salesPageQuery(
  db: Db,
  where: SQL | undefined,
  page: { limit: number; offset: number },
  total?: number,
) {
  const take = total === undefined ? page.limit : Math.min(page.limit, total - page.offset);
  if (take <= 0) return undefined;
  // Rows of the set older than the page: fewer of them than newer ones means the oldest end is nearer.
  const after = total === undefined ? Infinity : total - page.offset - take;
  const reverse = after < page.offset;
  const ids = db
    .select({ id: games.id })
    .from(games)
    .where(where)
    .orderBy(...(reverse ? [asc(games.createdAt), asc(games.id)] : [desc(games.createdAt), desc(games.id)]))
    .limit(take)
    .offset(reverse ? after : page.offset);
  return selectSales(db).where(inArray(games.id, ids)).orderBy(desc(games.createdAt), desc(games.id));
}

/**
 * An export's row as the driver answers it: read by name, with no per-row mapping into typed
 * objects, which cost more than writing the row (decision 020). Times are PostgreSQL's text, exact
 * to the microsecond (the keyset continues from it); money is cents (int8: a string or a number).
 */
export type SaleExportRow = {
  id: number;
  created_at: string;
  username: string;
  full_name: string;
  parent_name: string | null;
  start_range: number;
  end_range: number;
  bet_amount: string | number;
  selected_count: number;
  pool: string | number;
  total_prize: string | number;
  winners_count: number;
  commission: string | number;
};

/** One keyset page of an export, newest first, after the row `after` (docs/product/reports.md#exports). */
export function saleExportPageSql(where: SQL | undefined, after: TimeKey | undefined, limit: number): SQL {
  const condition = and(where, olderThan(games.createdAt, games.id, after));
  return sql`SELECT ${games.id}, ${games.createdAt}, ${player.username}, ${player.fullName},
      ${parent.fullName} AS parent_name, ${games.startRange}, ${games.endRange}, ${games.betAmount},
      ${games.selectedCount}, ${games.pool}, ${games.totalPrize}, ${games.winnersCount}, ${games.commission}
    FROM ${games} JOIN ${users} player ON ${player.id} = ${games.userId}
      LEFT JOIN ${users} parent ON ${parent.id} = ${games.parentId}
    ${condition ? sql`WHERE ${condition}` : sql``}
    ORDER BY ${games.createdAt} DESC, ${games.id} DESC LIMIT ${limit}`;
}

export function saleExportPage(db: Db, where: SQL | undefined, after: TimeKey | undefined, limit: number) {
  return queryPrepared<SaleExportRow>(db, saleExportPageSql(where, after, limit));
}
