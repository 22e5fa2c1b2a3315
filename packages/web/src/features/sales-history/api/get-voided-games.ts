import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GameSummary } from '@lot/domain/schemas/games';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, type SalesWindow } from './sales-page.ts';

/** Every list and count of games lives under this key: a draw or a void refreshes them all. */
export const gamesListQueryKey = ['games', 'list'] as const;

/** A page of voided games and the totals of the whole filtered set: how many, and the pools returned. */
export type VoidedGamesPage = { items: GameSummary[]; total: number; totalPool: string };

/**
 * GET /api/games?status=voided: the games voided after a draw (their pool returned), newest first,
 * in the caller's scope (admin all, a super agent its hierarchy, an agent its users, a user their own),
 * with the count and the pools of the whole filtered set (X-Total-Count, X-Total-Pool).
 */
export async function getVoidedGames(window: SalesWindow): Promise<VoidedGamesPage> {
  const { items, total, headers } = await apiPage<GameSummary>('/api/games', {
    query: { status: 'voided', ...pageQuery(window) },
  });
  return { items, total, totalPool: headers.get('x-total-pool') ?? '0.00' };
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
