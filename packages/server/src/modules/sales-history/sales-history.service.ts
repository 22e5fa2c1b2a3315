import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type { AdminSalesQuery, Sale, SaleDetail, SaleInput, SalesQuery } from '@lot/domain/schemas/sales-history';
import type { Context } from '../../lib/context.ts';
import { settledRoundOf } from '../games/games.repository.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import { salesAccess, type SalesScope } from './sales-history.access.ts';
import { checkDescribes } from './sales-history.describes.ts';
import {
  findGame,
  findSaleRow,
  findWinners,
  readSalesList,
  readSalesPage,
  saleExportPage,
  NEAR_PAGE_OFFSET,
  salesSet,
  type SaleRow,
  type SalesFilter,
} from './sales-history.repository.ts';

function toSale(row: SaleRow): Sale {
  return {
    id: row.id,
    number: row.number,
    userId: row.user_id,
    createdAt: new Date(row.created_at).toISOString(),
    startRange: row.start_range,
    endRange: row.end_range,
    betAmount: formatCents(BigInt(row.bet_amount)),
    totalPrize: formatCents(BigInt(row.total_prize)),
    commission: formatCents(BigInt(row.commission)),
    selectedNumbersCount: row.selected_count,
    winningNumbersCount: row.winners_count,
    user: {
      id: row.user_id,
      username: row.username,
      fullName: row.full_name,
      parent:
        row.parent_id !== null && row.parent_name !== null ? { id: row.parent_id, fullName: row.parent_name } : null,
    },
  };
}

type StoredGameData = {
  selectedNumbers: { number: number; name: string; phoneNumber: string }[];
  winningNumbers: number[];
  drawCount: number;
};

export async function getSale(ctx: Context, id: number): Promise<SaleDetail> {
  const { db, caller } = ctx;
  const game = await findGame(db, id, salesAccess.read(caller));
  if (!game) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const row = await findSaleRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const winners = await findWinners(db, id);
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

/**
 * POST /api/sales-history, kept for the original client (decision 013). No request chooses a drawn
 * number any more: the server draws and settles every game itself. This answers the record of the
 * caller's settled game that the body describes exactly, and refuses anything else (422); either
 * way it changes nothing.
 */
export async function recordSale(ctx: Context, input: SaleInput): Promise<SaleDetail> {
  const { db, caller } = ctx;
  salesAccess.record(caller, input);
  const settled = await settledRoundOf(db, caller, input.gameId);
  if (!settled) throw new AppError('UNPROCESSABLE', SERVER_MESSAGES.notAServerGame);
  checkDescribes(input, settled, settled.prizes);
  return getSale(ctx, settled.saleId);
}

export type SalesPage = { items: Sale[]; total: number; totalCommission: string };

/** A page of games with the totals of the whole filtered set, both computed by the database. */
export async function listSales(ctx: Context, scope: SalesScope, query: SalesQuery): Promise<SalesPage> {
  const { db, caller } = ctx;
  const set = salesSet(caller, scope, query);
  const owner = salesAccess.ownerLookup(caller, scope);
  // The totals, the owner's role and a near page are one statement (decision 032); nothing is
  // answered before the owner check has passed. A deep page waits for the total, which says from
  // which end to read it.
  const near = query.offset < NEAR_PAGE_OFFSET;
  const list = await readSalesList(db, set, owner, near ? query : undefined);
  if (owner) salesAccess.assertOwner(scope, list.ownerRole);
  const rows = near ? list.rows : await readSalesPage(db, set.where, query, list.total);
  return { items: rows.map(toSale), total: list.total, totalCommission: formatCents(list.commission) };
}

/** The admin's filter: role + userId pick whose games (a role without a user is everyone's). */
export function adminScope({ role, userId, ...rest }: Omit<AdminSalesQuery, 'limit' | 'offset'>) {
  return role && userId !== undefined
    ? { scope: { role, id: userId } as SalesScope, filter: rest }
    : { scope: { role: 'all' } as SalesScope, filter: { ...rest, userId } };
}

/** GET /api/sales-history/filter (admin). */
export function filterSales(ctx: Context, query: AdminSalesQuery): Promise<SalesPage> {
  const { scope, filter } = adminScope(query);
  return listSales(ctx, scope, { ...filter, limit: query.limit, offset: query.offset });
}

/** The columns of a sales-history export: what the list shows, plus the pool. */
export const SALE_EXPORT_COLUMNS: ExportColumn<SaleRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.created_at },
  // The shop's game number people read ("Game #N", decision 037); beside the shop's names.
  { header: 'Game #', type: 'integer', value: (row) => row.number },
  { header: 'Username', type: 'text', value: (row) => row.username },
  { header: 'Full name', type: 'text', value: (row) => row.full_name },
  { header: 'Agent', type: 'text', value: (row) => row.parent_name },
  { header: 'Range', type: 'text', value: (row) => `${row.start_range}-${row.end_range}` },
  { header: 'Bet', type: 'money', value: (row) => row.bet_amount },
  { header: 'Numbers sold', type: 'integer', value: (row) => row.selected_count },
  { header: 'Pool', type: 'money', value: (row) => row.pool },
  { header: 'Prizes', type: 'money', value: (row) => row.total_prize },
  { header: 'Winners', type: 'integer', value: (row) => row.winners_count },
  { header: 'Commission', type: 'money', value: (row) => row.commission },
];

/**
 * Every game of a list's filtered set, newest first, a page at a time by keyset on (created_at, id)
 * (docs/product/reports.md#exports); the owner is checked before anything is read.
 */
export async function saleExportPages(
  ctx: Context,
  scope: SalesScope,
  filter: SalesFilter,
): Promise<AsyncIterable<SaleRow[]>> {
  const { db, caller } = ctx;
  await salesAccess.checkOwner(db, caller, scope);
  const { where } = salesSet(caller, scope, filter);
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => saleExportPage(db, where, after, limit),
    (row) => ({ at: row.created_at, id: row.id }),
  );
}
