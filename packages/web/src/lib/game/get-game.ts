import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Game } from '@lot/domain/schemas/games';
import { api, ApiError } from '../api-client.ts';

/** GET /api/games/{id}: one game, for its player and the people above them. */
export function getGame(id: number): Promise<Game> {
  return api<Game>(`/api/games/${id}`);
}

export const gameQueryKey = (id: number) => ['games', id] as const;

export const gameQuery = (id: number) =>
  queryOptions({
    queryKey: gameQueryKey(id),
    queryFn: () => getGame(id),
    retry: (failures, error) => !(error instanceof ApiError && [400, 404].includes(error.status)) && failures < 2,
  });

export function useGame(id: number | null) {
  return useQuery({ ...gameQuery(id ?? 0), enabled: id !== null });
}
