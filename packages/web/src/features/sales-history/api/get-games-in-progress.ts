import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GameSummary } from '@lot/domain/schemas/games';
import { apiPage } from '../../../lib/api-client.ts';
import { gamesListQueryKey } from './get-voided-games.ts';
import { SALES_PAGE_SIZE } from './sales-page.ts';

/** `drawing`: frozen by the shop's first draw, waiting to be finished; `open`: the shop is taking entries. */
export type InProgressStatus = 'drawing' | 'open';

export type GamesPage = { items: GameSummary[]; total: number };

/**
 * GET /api/games?status=drawing|open: the games in progress in the caller's scope (admin all, a
 * super agent its hierarchy, an agent its users), newest first, whatever their date: a game
 * frozen last week is still waiting for someone to finish or void it.
 */
export async function getGamesInProgress(status: InProgressStatus, page: number): Promise<GamesPage> {
  const { items, total } = await apiPage<GameSummary>('/api/games', {
    query: { status, limit: SALES_PAGE_SIZE, offset: (page - 1) * SALES_PAGE_SIZE },
  });
  return { items, total };
}

/** A game in progress moves on its own (the shop draws, another upline voids): the list looks again now and then. */
const IN_PROGRESS_REFRESH_MS = 15_000;

export const gamesInProgressQuery = (status: InProgressStatus, page: number) =>
  queryOptions({
    queryKey: [...gamesListQueryKey, 'in-progress', status, page],
    queryFn: () => getGamesInProgress(status, page),
    placeholderData: keepPreviousData,
    refetchInterval: IN_PROGRESS_REFRESH_MS,
  });

export function useGamesInProgress(status: InProgressStatus, page: number) {
  return useQuery(gamesInProgressQuery(status, page));
}
