import { formatCents } from '@lot/domain/money';
import type { GameSummary, GamesQuery } from '@lot/domain/schemas/games';
import type { Context } from '../../lib/context.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import { announcedWinners } from './game-view.ts';
import {
  callerGameExportPage,
  drawsOf,
  entriesOf,
  gamesPage,
  poolOf,
  prizesOf,
  type GameExportRow,
} from './games.repository.ts';

/**
 * Games in the caller's scope by status (the Voided games tab of the history screens), newest first,
 * with the count and the pools of the whole filtered set (docs/product/screens.md#voided-games).
 */
export async function listGames(
  ctx: Context,
  query: GamesQuery,
): Promise<{ items: GameSummary[]; total: number; totalPool: string }> {
  const { rows, total, pool } = await gamesPage(ctx.db, ctx.caller, query);
  const items = rows.map(({ round, player: user, voider: by, parentFullName }): GameSummary => {
    const parentId = round.parentId;
    const announced = announcedWinners(round);
    return {
      id: round.id,
      number: round.number,
      code: round.code,
      status: round.status,
      openedAt: round.createdAt.toISOString(),
      endedAt: round.endedAt?.toISOString() ?? null,
      startRange: round.startRange,
      endRange: round.endRange,
      betAmount: formatCents(round.betAmount),
      pool: formatCents(poolOf(round)),
      entriesCount: entriesOf(round).length,
      drawsCount: drawsOf(round).length,
      winnersAnnounced: announced.count,
      prizesAnnounced: formatCents(announced.amount),
      prizesCount: prizesOf(round).length,
      protocol: round.protocol,
      voidReason: round.voidReason,
      voidedBy: by?.id ? { id: by.id, username: by.username, fullName: by.fullName } : null,
      user: {
        id: user.id,
        username: user.username,
        fullName: user.fullName,
        parent: parentId !== null && parentFullName !== null ? { id: parentId, fullName: parentFullName } : null,
      },
    };
  });
  return { items, total, totalPool: formatCents(BigInt(pool)) };
}

/** The columns of a games export (the Voided games tab's): what its table shows, one cell per fact. */
export const GAME_EXPORT_COLUMNS: ExportColumn<GameExportRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.created_at },
  { header: 'Game no.', type: 'integer', value: (row) => row.number },
  { header: 'Game code', type: 'text', value: (row) => row.code },
  { header: 'User', type: 'text', value: (row) => row.full_name },
  { header: 'Username', type: 'text', value: (row) => row.username },
  { header: 'Parent', type: 'text', value: (row) => row.parent_name },
  { header: 'Range', type: 'text', value: (row) => `${row.start_range}-${row.end_range}` },
  { header: 'Bet', type: 'money', value: (row) => row.bet_amount },
  { header: 'Pool', type: 'money', value: (row) => row.pool },
  { header: 'Drawn', type: 'integer', value: (row) => row.drawn },
  { header: 'Prizes', type: 'integer', value: (row) => row.prizes },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Reason', type: 'text', value: (row) => row.void_reason },
  { header: 'Voided by', type: 'text', value: (row) => row.voided_by },
  { header: 'Ended', type: 'time', value: (row) => row.ended_at },
  { header: 'Protocol', type: 'text', value: (row) => row.protocol },
];

/** GET /api/games/export: every game of the list's filtered set, newest first, a keyset page at a time. */
export function gameExportPages(
  ctx: Context,
  query: Omit<GamesQuery, 'limit' | 'offset'>,
): AsyncIterable<GameExportRow[]> {
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => callerGameExportPage(ctx.db, ctx.caller, query, after, limit),
    (row) => ({ at: row.created_at, id: row.id }),
  );
}
