import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError } from '@lot/domain/errors';
import { settleGame, type GameWinner, type Participant, type PrizeSetting } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type { Role } from '@lot/domain/roles';
import type { AdminSalesQuery, Sale, SaleDetail, SaleInput, SalesQuery } from '@lot/domain/schemas/sales-history';
import type { Db, Tx } from '../../db/client.ts';
import { gameWinners, games, salesDaily, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { settledRoundOf } from '../games/games.repository.ts';
import { findInScope, readableByRecord } from '../users/users.repository.ts';
import { keysetPages, olderThan, type ExportColumn, type TimeKey } from '../../lib/export.ts';

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
  /** The exact time (microseconds), for an export's keyset. */
  at: sql<string>`${games.createdAt}::text`,
};

function selectSales(db: Db | Tx) {
  return db
    .select(saleColumns)
    .from(games)
    .innerJoin(player, eq(player.id, games.userId))
    .leftJoin(parent, eq(parent.id, games.parentId));
}

type SaleRow = Awaited<ReturnType<ReturnType<typeof selectSales>['execute']>>[number];

function toSale(row: SaleRow): Sale {
  return {
    id: row.id,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    startRange: row.startRange,
    endRange: row.endRange,
    betAmount: formatCents(row.betAmount),
    totalPrize: formatCents(row.totalPrize),
    commission: formatCents(row.commission),
    selectedNumbersCount: row.selectedCount,
    winningNumbersCount: row.winnersCount,
    user: {
      id: row.userId,
      username: row.username,
      fullName: row.fullName,
      parent:
        row.parentId !== null && row.parentFullName !== null
          ? { id: row.parentId, fullName: row.parentFullName }
          : null,
    },
  };
}

type StoredGameData = {
  selectedNumbers: { number: number; name: string; phoneNumber: string }[];
  winningNumbers: number[];
  drawCount: number;
};

/** Who may read a game: the hierarchy recorded with it (admin all), as a condition on `games`. */
const readableBy = (caller: Caller) => readableByRecord(caller, games);

export async function getSale(db: Db | Tx, caller: Caller, id: number): Promise<SaleDetail> {
  const [game] = await db
    .select()
    .from(games)
    .where(and(eq(games.id, id), readableBy(caller)));
  if (!game) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const [row] = await selectSales(db).where(eq(games.id, id));
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const winners = await db
    .select()
    .from(gameWinners)
    .where(eq(gameWinners.gameId, id))
    .orderBy(asc(gameWinners.position), asc(gameWinners.id));
  const data = game.gameData as StoredGameData;
  return {
    ...toSale(row),
    gameData: {
      selectedNumbers: data.selectedNumbers,
      winningNumbers: data.winningNumbers,
      drawCount: data.drawCount,
      totalPrizePool: formatCents(game.pool),
      startRange: game.startRange,
      endRange: game.endRange,
      betAmount: formatCents(game.betAmount),
    },
    winners: winners.map((w) => ({
      id: w.id,
      number: w.number,
      name: w.name,
      phoneNumber: w.phoneNumber,
      position: w.position,
      prizeAmount: formatCents(w.prizeAmount),
    })),
    transactionId: game.transactionId,
  };
}

function inconsistent(message: string): AppError {
  return new AppError('UNPROCESSABLE', `The game record does not add up: ${message}`);
}

const winnerKey = (w: Pick<GameWinner, 'position' | 'number' | 'name' | 'phoneNumber' | 'prizeAmount'>) =>
  `${w.position}|${w.number}|${w.name}|${w.phoneNumber}|${w.prizeAmount}`;
const entryKey = (p: Participant) => `${p.number}|${p.name}|${p.phoneNumber}`;

/**
 * The body must describe the settled game exactly: its range, bet, participants, draws in order,
 * and the totals and winners LOT-DRAW-1's draws give with the prizes the game opened with.
 */
function checkDescribes(input: SaleInput, game: { entries: Participant[]; drawn: number[] }, prizes: PrizeSetting[]) {
  const { gameData } = input;
  if (
    gameData.startRange !== input.startRange ||
    gameData.endRange !== input.endRange ||
    gameData.betAmount !== input.betAmount
  ) {
    throw inconsistent('the game data disagrees with the range or the bet');
  }
  const given = gameData.selectedNumbers.map(entryKey).sort();
  const held = game.entries.map(entryKey).sort();
  if (given.length !== held.length || given.some((key, i) => key !== held[i])) {
    throw inconsistent('the participants are not those of the game');
  }
  if (
    gameData.winningNumbers.length !== game.drawn.length ||
    gameData.winningNumbers.some((n, i) => n !== game.drawn[i]) ||
    gameData.drawCount !== game.drawn.length
  ) {
    throw inconsistent('the drawn numbers are not those the server drew');
  }
  const settlement = settleGame({
    selected: game.entries,
    drawn: game.drawn,
    settings: prizes,
    betCents: input.betAmount,
  });
  if (input.selectedNumbersCount !== game.entries.length) throw inconsistent('selectedNumbersCount is wrong');
  if (gameData.totalPrizePool !== settlement.pool) throw inconsistent(`the pool is ${formatCents(settlement.pool)}`);
  if (input.totalPrize !== settlement.totalPrize)
    throw inconsistent(`the total prize is ${formatCents(settlement.totalPrize)}`);
  if (input.commission !== settlement.commission)
    throw inconsistent(`the commission is ${formatCents(settlement.commission)}`);
  if (input.winningNumbersCount !== settlement.winners.length) throw inconsistent('winningNumbersCount is wrong');
  const expected = settlement.winners.map(winnerKey).sort();
  const winners = input.winners.map(winnerKey).sort();
  if (expected.length !== winners.length || expected.some((key, i) => key !== winners[i])) {
    throw inconsistent('the winners do not match the draw');
  }
}

export const NOT_A_SERVER_GAME =
  'Games are drawn and recorded by the server: only a finished server-run game can be described here';

/**
 * POST /api/sales-history, kept for the original client (decision 013). No request chooses a drawn
 * number any more: the server draws and settles every game itself. This answers the record of the
 * caller's settled game that the body describes exactly, and refuses anything else (422); either
 * way it changes nothing.
 */
export async function recordSale(db: Db, caller: Caller, input: SaleInput): Promise<SaleDetail> {
  if (input.userId !== caller.id) throw new AppError('FORBIDDEN', 'You can only record your own games');
  const settled = await settledRoundOf(db, caller, input.gameId);
  if (!settled) throw new AppError('UNPROCESSABLE', NOT_A_SERVER_GAME);
  checkDescribes(input, settled, settled.prizes);
  return getSale(db, caller, settled.saleId);
}

export type SalesScope = { role: Exclude<Role, 'admin'>; id: number } | { role: 'all' };

export type SalesPage = { items: Sale[]; total: number; totalCommission: string };

/**
 * A person whose games are asked for must be in the caller's reach and of the named role. The
 * caller's own games need no lookup: the sign-in check has just read the caller, live and active.
 */
async function checkOwner(db: Db, caller: Caller, role: Exclude<Role, 'admin'>, id: number): Promise<void> {
  const owner = id === caller.id && role === caller.role ? caller : await findInScope(db, caller, id);
  if (!owner || owner.role !== role) throw new AppError('NOT_FOUND', 'User not found');
}

const DAY_MS = 86_400_000;

type Totals = { total: number; commission: bigint };

async function rawTotals(db: Db, where: SQL | undefined): Promise<Totals> {
  const [row] = await db
    .select({ total: count(), commission: sum(games.commission) })
    .from(games)
    .where(where);
  return { total: row?.total ?? 0, commission: BigInt(row?.commission ?? 0) };
}

/**
 * Totals of one superagent's games (or everyone's) between two instants: whole UTC days from
 * the sales_daily rollup, the partial days at either edge from the games themselves. Exact, and
 * independent of how many games the range holds.
 */
async function rollupTotals(
  db: Db,
  superagentId: number | undefined,
  from?: Date,
  toExclusive?: Date,
): Promise<Totals> {
  const firstDay = from ? Math.ceil(from.getTime() / DAY_MS) * DAY_MS : undefined;
  const endDay = toExclusive ? Math.floor(toExclusive.getTime() / DAY_MS) * DAY_MS : undefined;
  const scope = superagentId === undefined ? undefined : eq(games.superagentId, superagentId);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return rawTotals(
      db,
      and(scope, from && gte(games.createdAt, from), toExclusive && lt(games.createdAt, toExclusive)),
    );
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
  // Two independent reads of disjoint time ranges, side by side.
  const [[whole], partial] = await Promise.all([
    db
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
    edges.length > 0 ? rawTotals(db, and(scope, or(...edges))) : { total: 0, commission: 0n },
  ]);
  return {
    total: Number(whole?.total ?? 0) + partial.total,
    commission: BigInt(whole?.commission ?? 0) + partial.commission,
  };
}

/**
 * The ids of one page, newest first, read from an index alone (a subquery of the page's own
 * statement). Past the middle of the set the page is read from the oldest end instead, so the
 * last page costs what the first does.
 */
function pageIds(db: Db, where: SQL | undefined, page: { limit: number; offset: number }, total: number) {
  const take = Math.min(page.limit, total - page.offset);
  if (take <= 0) return undefined;
  const after = total - page.offset - take;
  const reverse = after < page.offset;
  return db
    .select({ id: games.id })
    .from(games)
    .where(where)
    .orderBy(...(reverse ? [asc(games.createdAt), asc(games.id)] : [desc(games.createdAt), desc(games.id)]))
    .limit(take)
    .offset(reverse ? after : page.offset);
}

type SalesFilter = Pick<SalesQuery, 'from' | 'to' | 'agentId' | 'userId'>;

/**
 * Which games a list (or its export) holds. The games themselves must be the caller's by the
 * hierarchy recorded with them (as getSale judges them): after a player moves, the new parent must
 * not list games played under the old one. Filters narrow within the scope: agentId to one
 * agent's users, userId to one user.
 */
function salesWhere(caller: Caller, scope: SalesScope, query: SalesFilter) {
  const conditions: (SQL | undefined)[] = [readableBy(caller)];
  // The games of a superagent, an agent or a user: the same rule as reading them, for that person.
  if (scope.role !== 'all') conditions.push(readableByRecord(scope, games));
  if (query.agentId !== undefined) conditions.push(eq(games.parentId, query.agentId));
  if (query.userId !== undefined) conditions.push(eq(games.userId, query.userId));
  const from = query.from ? new Date(query.from) : undefined;
  // `to` is inclusive to the millisecond (docs/product/validation-and-errors.md#date-filters: through 23:59:59.999) while the database keeps
  // microseconds: a game at 23:59:59.999500 belongs to that day, so the bound is the next millisecond.
  const toExclusive = query.to ? new Date(Date.parse(query.to) + 1) : undefined;
  if (from) conditions.push(gte(games.createdAt, from));
  if (toExclusive) conditions.push(lt(games.createdAt, toExclusive));
  return { where: and(...conditions), from, toExclusive };
}

/** A page of games with the totals of the whole filtered set, both computed by the database. */
export async function listSales(db: Db, caller: Caller, scope: SalesScope, query: SalesQuery): Promise<SalesPage> {
  const { where, from, toExclusive } = salesWhere(caller, scope, query);

  // A superagent's games or everyone's, narrowed only by dates: the set the rollup describes.
  const wholeSuperagent = query.agentId === undefined && query.userId === undefined;
  const counting =
    wholeSuperagent && scope.role === 'superagent'
      ? rollupTotals(db, scope.id, from, toExclusive)
      : wholeSuperagent && scope.role === 'all' && caller.role === 'admin'
        ? rollupTotals(db, undefined, from, toExclusive)
        : rawTotals(db, where);
  // The owner check and the totals are independent reads, side by side; nothing is answered
  // before the check has passed.
  const [, totals] = await Promise.all([
    scope.role === 'all' ? undefined : checkOwner(db, caller, scope.role, scope.id),
    counting,
  ]);

  const ids = pageIds(db, where, query, totals.total);
  const rows = ids
    ? await selectSales(db).where(inArray(games.id, ids)).orderBy(desc(games.createdAt), desc(games.id))
    : [];
  return { items: rows.map(toSale), total: totals.total, totalCommission: formatCents(totals.commission) };
}

/** The admin's filter: role + userId pick whose games (a role without a user is everyone's). */
export function adminScope({ role, userId, ...rest }: Omit<AdminSalesQuery, 'limit' | 'offset'>) {
  return role && userId !== undefined
    ? { scope: { role, id: userId } as SalesScope, filter: rest }
    : { scope: { role: 'all' } as SalesScope, filter: { ...rest, userId } };
}

/** GET /api/sales-history/filter (admin). */
export function filterSales(db: Db, caller: Caller, query: AdminSalesQuery): Promise<SalesPage> {
  const { scope, filter } = adminScope(query);
  return listSales(db, caller, scope, { ...filter, limit: query.limit, offset: query.offset });
}

export type SaleExportRow = SaleRow;

/** The columns of a sales-history export: what the list shows, plus the pool. */
export const SALE_EXPORT_COLUMNS: ExportColumn<SaleExportRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.createdAt },
  { header: 'Game ID', type: 'integer', value: (row) => row.id },
  { header: 'Username', type: 'text', value: (row) => row.username },
  { header: 'Full name', type: 'text', value: (row) => row.fullName },
  { header: 'Agent', type: 'text', value: (row) => row.parentFullName },
  { header: 'Range', type: 'text', value: (row) => `${row.startRange}-${row.endRange}` },
  { header: 'Bet', type: 'money', value: (row) => row.betAmount },
  { header: 'Numbers sold', type: 'integer', value: (row) => row.selectedCount },
  { header: 'Pool', type: 'money', value: (row) => row.pool },
  { header: 'Prizes', type: 'money', value: (row) => row.totalPrize },
  { header: 'Winners', type: 'integer', value: (row) => row.winnersCount },
  { header: 'Commission', type: 'money', value: (row) => row.commission },
];

/**
 * Every game of a list's filtered set, newest first, a page at a time by keyset on (created_at, id)
 * (docs/product/reports.md#exports); the owner is checked before anything is read.
 */
export async function saleExportPages(
  db: Db,
  caller: Caller,
  scope: SalesScope,
  filter: SalesFilter,
): Promise<AsyncIterable<SaleExportRow[]>> {
  if (scope.role !== 'all') await checkOwner(db, caller, scope.role, scope.id);
  const { where } = salesWhere(caller, scope, filter);
  return keysetPages(
    (after: TimeKey | undefined, limit: number) =>
      selectSales(db)
        .where(and(where, olderThan(games.createdAt, games.id, after)))
        .orderBy(desc(games.createdAt), desc(games.id))
        .limit(limit),
    (row) => ({ at: row.at, id: row.id }),
  );
}
