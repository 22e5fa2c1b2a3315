import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GameSummary } from '@lot/domain/schemas/games';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, type SalesWindow } from './sales-page.ts';

/** Every list and count of games lives under this key: a draw or a void refreshes them all. */
export const gamesListQueryKey = ['games', 'list'] as const;

export type VoidedGamesPage = { items: GameSummary[]; total: number };

/**
 * GET /api/games?status=voided: the games voided after a draw (their pool returned), newest first,
 * in the caller's scope (admin all, a super agent its hierarchy, an agent its users, a user their own).
 */
export async function getVoidedGames(window: SalesWindow): Promise<VoidedGamesPage> {
  const { items, total } = await apiPage<GameSummary>('/api/games', {
    query: { status: 'voided', ...pageQuery(window) },
  });
  return { items, total };
}

export const voidedGamesQuery = (window: SalesWindow) =>
  queryOptions({
    queryKey: [...gamesListQueryKey, 'voided', window],
    queryFn: () => getVoidedGames(window),
    placeholderData: keepPreviousData,
  });

export function useVoidedGames(window: SalesWindow, enabled = true) {
  return useQuery({ ...voidedGamesQuery(window), enabled });
}
