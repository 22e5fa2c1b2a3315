import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DrawResult } from '@lot/domain/schemas/games';
import { api, ApiError } from '../../../lib/api-client.ts';
import { holdGame } from './games-cache.ts';

export type DrawRequest = { gameId: number; position: number };

/**
 * POST /api/games/{id}/draws: the server draws the position (which must be the next one). The
 * first draw holds the pool from the balance; the last settles the game. Asking for a position
 * already drawn answers that draw again, so a request resent after a lost answer draws nothing new.
 */
export function draw({ gameId, position }: DrawRequest): Promise<DrawResult> {
  return api<DrawResult>(`/api/games/${gameId}/draws`, { method: 'POST', body: { position } });
}

/** A lost answer (the network, a timeout, a 5xx): the same position is asked again, never the next. */
const isRetriable = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

export function useDraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: draw,
    retry: (failures, error) => failures < 3 && isRetriable(error),
    retryDelay: (failures) => 500 * 2 ** (failures - 1),
    onSuccess: (result) => holdGame(queryClient, result.game),
  });
}
