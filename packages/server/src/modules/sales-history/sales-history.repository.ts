import { and, asc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SalesQuery } from '@lot/domain/schemas/sales-history';
import { type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { whereClause } from '../../db/sql.ts';
import { gameWinners, games, salesDaily, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { olderThan, type TimeKey } from '../../lib/export.ts';
import { salesAccess, type SalesScope } from './sales-history.access.ts';

const player = alias(users, 'player');
const parent = alias(users, 'parent');

/**
 * A game's row as lists, exports and a game's page read it: by name, as the driver answers, with
 * no per-row mapping into typed objects, which cost more than writing an export's row (decision
 * 020). Times are PostgreSQL's text, exact to the microsecond (an export's keyset continues from
 * it); money is cents (int8: a string or a number, as the driver answers it).
 */
export type SaleRow = {
  id: number;
  /** The shop's game number (null for a record without a round). */
  number: number | null;
  user_id: number;
  parent_id: number | null;
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

/** The columns of a `SaleRow`, and the game's player and the parent recorded with it. */
const SALE_COLUMNS = sql`${games.id}, ${games.number}, ${games.userId}, ${games.parentId}, ${games.createdAt}, ${player.username},
    ${player.fullName}, ${parent.fullName} AS parent_name, ${games.startRange}, ${games.endRange}, ${games.betAmount},
    ${games.selectedCount}, ${games.pool}, ${games.totalPrize}, ${games.winnersCount}, ${games.commission}`;
const SALE_SOURCE = sql`${games} JOIN ${users} player ON ${player.id} = ${games.userId}
    LEFT JOIN ${users} parent ON ${parent.id} = ${games.parentId}`;

/** The game with this id if `readable` holds for it. */
export async function findGame(db: Db | Tx, id: number, readable: SQL | undefined) {
  const [game] = await db
    .select()
    .from(games)
    .where(and(eq(games.id, id), readable));
  return game;
}

export async function findSaleRow(db: Db | Tx, id: number): Promise<SaleRow | undefined> {
  const [row] = await queryPrepared<SaleRow>(
    db,
    sql`SELECT ${SALE_COLUMNS} FROM ${SALE_SOURCE} WHERE ${games.id} = ${id}`,
  );
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

/** One row of (total, commission) for the games matching `where`. */
const gamesTotals = (where: SQL | undefined) =>
  sql`SELECT count(*) AS total, sum(${games.commission}) AS commission FROM ${games}${whereClause(where)}`;

/**
 * The parts that total a set, each one row of (total, commission): a count of its games, or, for
 * a set the rollup describes, whole UTC days from sales_daily plus the games of the partial days
 * at either edge. Exact, and independent of how many games the range holds.
 */
function totalsParts({ where, from, toExclusive, rollup }: SalesSet): SQL[] {
  if (!rollup) return [gamesTotals(where)];
  const { superagentId } = rollup;
  const firstDay = from ? Math.ceil(from.getTime() / DAY_MS) * DAY_MS : undefined;
  const endDay = toExclusive ? Math.floor(toExclusive.getTime() / DAY_MS) * DAY_MS : undefined;
  const scope = superagentId === undefined ? undefined : eq(games.superagentId, superagentId);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return [
      gamesTotals(and(scope, from && gte(games.createdAt, from), toExclusive && lt(games.createdAt, toExclusive))),
    ];
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const days = and(
    superagentId === undefined ? undefined : eq(salesDaily.superagentId, superagentId),
    firstDay !== undefined ? gte(salesDaily.day, day(firstDay)) : undefined,
    endDay !== undefined ? lt(salesDaily.day, day(endDay)) : undefined,
  );
  const parts = [
    sql`SELECT sum(${salesDaily.games}) AS total, sum(${salesDaily.commission}) AS commission FROM ${salesDaily}${whereClause(days)}`,
  ];
  const edges = [
    from && firstDay !== undefined
      ? and(gte(games.createdAt, from), lt(games.createdAt, new Date(firstDay)))
      : undefined,
    toExclusive && endDay !== undefined
      ? and(gte(games.createdAt, new Date(endDay)), lt(games.createdAt, toExclusive))
      : undefined,
  ].filter((edge) => edge !== undefined);
  if (edges.length > 0) parts.push(gamesTotals(and(scope, or(...edges))));
  return parts;
}

/** One row: how many games a set holds and their commission (cents). */
function totalsSql(set: SalesSet): SQL {
  return sql`SELECT COALESCE(sum(s.total), 0)::int8 AS sales_total, COALESCE(sum(s.commission), 0)::int8 AS sales_commission
    FROM (${sql.join(totalsParts(set), sql` UNION ALL `)}) s`;
}

/** Pages that skip fewer rows than this are read from the newest end without waiting for the total. */
export const NEAR_PAGE_OFFSET = 1_000;

/**
 * One page of a set, newest first, its ids read from an index alone (a subquery of the page's own
 * statement). Past the middle of the set the ids are read from the oldest end instead, so the
 * last page costs what the first does. Nothing to read past the end. Without the total (a near
 * page, read in the statement of its totals) the page is read from the newest end.
 */
export function salesPageSql(
  where: SQL | undefined,
  page: { limit: number; offset: number },
  total?: number,
): SQL | undefined {
  const take = total === undefined ? page.limit : Math.min(page.limit, total - page.offset);
  if (take <= 0) return undefined;
  // Rows of the set older than the page: fewer of them than newer ones means the oldest end is nearer.
  const after = total === undefined ? Infinity : total - page.offset - take;
  const reverse = after < page.offset;
  const order = reverse ? sql`ASC` : sql`DESC`;
  return sql`SELECT ${SALE_COLUMNS} FROM ${SALE_SOURCE}
    WHERE ${games.id} IN (SELECT ${games.id} FROM ${games}${whereClause(where)}
      ORDER BY ${games.createdAt} ${order}, ${games.id} ${order} LIMIT ${take} OFFSET ${reverse ? after : page.offset})
    ORDER BY ${games.createdAt} DESC, ${games.id} DESC`;
}

export async function readSalesPage(
  db: Db,
  where: SQL | undefined,
  page: { limit: number; offset: number },
  total: number,
): Promise<SaleRow[]> {
  const query = salesPageSql(where, page, total);
  return query ? queryPrepared<SaleRow>(db, query) : [];
}

/**
 * A set's totals, that person's role as the caller may see it when the list is someone else's
 * (`owner`), and a near page (read from the newest end) when one is asked for, in one statement:
 * one round trip (decision 032).
 */
export function salesListSql(set: SalesSet, owner?: SQL, page?: { limit: number; offset: number }): SQL {
  const pageSql = page && salesPageSql(set.where, page);
  return sql`SELECT t.sales_total, t.sales_commission${owner ? sql`, (${owner}) AS owner_role` : sql``}${pageSql ? sql`, p.*` : sql``}
    FROM (${totalsSql(set)}) t${pageSql ? sql` LEFT JOIN (${pageSql}) p ON true ORDER BY p.created_at DESC, p.id DESC` : sql``}`;
}

type ListRow = { sales_total: string | number; sales_commission: string | number; owner_role?: string | null } & (
  | SaleRow
  // The totals with no game: the page is empty or was not asked for.
  | { [Column in keyof SaleRow]?: null }
);

export async function readSalesList(
  db: Db,
  set: SalesSet,
  owner?: SQL,
  page?: { limit: number; offset: number },
): Promise<{ ownerRole: string | null; total: number; commission: bigint; rows: SaleRow[] }> {
  const rows = await queryPrepared<ListRow>(db, salesListSql(set, owner, page));
  const first = rows[0];
  return {
    ownerRole: first?.owner_role ?? null,
    total: Number(first?.sales_total ?? 0),
    commission: BigInt(first?.sales_commission ?? 0),
    rows: rows.filter((row): row is ListRow & SaleRow => row.id != null),
  };
}

/** One keyset page of an export, newest first, after the row `after` (docs/product/reports.md#exports). */
export function saleExportPageSql(where: SQL | undefined, after: TimeKey | undefined, limit: number): SQL {
  const condition = and(where, olderThan(games.createdAt, games.id, after));
  return sql`SELECT ${SALE_COLUMNS} FROM ${SALE_SOURCE}${whereClause(condition)}
    ORDER BY ${games.createdAt} DESC, ${games.id} DESC LIMIT ${limit}`;
}

export function saleExportPage(db: Db, where: SQL | undefined, after: TimeKey | undefined, limit: number) {
  return queryPrepared<SaleRow>(db, saleExportPageSql(where, after, limit));
}
