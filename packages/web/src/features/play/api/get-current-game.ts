import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';
import { isEnded, playGameQueryKey } from './games-cache.ts';
import { getGame } from '../../../lib/game/get-game.ts';

/** GET /api/games/current: the caller's open or drawing game, null when there is none. */
export function getCurrentGame(): Promise<Game | null> {
  return api<Game | null>('/api/games/current');
}

/**
 * What the play screen shows: with no game held, the one in play on the server (so a reload,
 * another browser or another device carries on with the same game); with one held, that game as
 * the server has it now (another device may have drawn or voided it); an ended game as it ended.
 */
export async function refreshPlayGame(queryClient: QueryClient): Promise<Game | null> {
  const held = queryClient.getQueryData<Game | null>(playGameQueryKey);
  if (!held) return getCurrentGame();
  if (isEnded(held)) return held;
  return getGame(held.id);
}

export const playGameQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: playGameQueryKey,
    queryFn: () => refreshPlayGame(queryClient),
    // A game changes only through this screen's calls (which write the answer here) or another
    // device: looked at again when the screen opens and when the window regains focus, not on a timer.
    staleTime: Infinity,
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

export function useCurrentGameQuery() {
  return useQuery(playGameQuery(useQueryClient()));
}
