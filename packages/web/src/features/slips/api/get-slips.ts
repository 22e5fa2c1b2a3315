import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SlipPrint } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

export const slipsQueryKey = (gameId: number) => ['games', gameId, 'slips'] as const;

/** GET /api/games/{id}/slips: how many times each slip of the game was printed (printed slips only). */
export function getSlips(gameId: number): Promise<SlipPrint[]> {
  return api<SlipPrint[]>(`/api/games/${gameId}/slips`);
}

export const slipsQuery = (gameId: number) =>
  queryOptions({
    queryKey: slipsQueryKey(gameId),
    queryFn: () => getSlips(gameId),
  });

export function useSlips(gameId: number | null) {
  return useQuery({ ...slipsQuery(gameId ?? 0), enabled: gameId !== null });
}
