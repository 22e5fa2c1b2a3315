import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DrawResult, DrawWaiting } from '@lot/domain/schemas/games';
import { api, ApiError } from '../../../lib/api-client.ts';
import { holdGame } from './games-cache.ts';

export type DrawRequest = { gameId: number; position: number };

/** The draw made (200), or the game frozen and waiting for its beacon round (202: nothing drawn yet). */
export type DrawAnswer = { kind: 'drawn'; result: DrawResult } | { kind: 'waiting'; waiting: DrawWaiting };

/**
 * POST /api/games/{id}/draws: the server draws the position (which must be the next one). The
 * first request freezes the game and holds the pool from the balance; a LOT-DRAW-2 game then
 * answers 202 until its public randomness round exists, and the same position is asked again. The
 * last draw settles the game. Asking for a position already drawn answers that draw again, so a
 * request resent after a lost answer draws nothing new.
 */
export async function draw({ gameId, position }: DrawRequest): Promise<DrawAnswer> {
  const body = await api<DrawResult | DrawWaiting>(`/api/games/${gameId}/draws`, {
    method: 'POST',
    body: { position },
  });
  return 'waitingForRound' in body ? { kind: 'waiting', waiting: body } : { kind: 'drawn', result: body };
}

/** A lost answer (the network, a timeout, a 5xx, a 429): the same position may be asked again, never the next. */
export const isRetriable = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

export function useDraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: draw,
    retry: (failures, error) => failures < 3 && isRetriable(error),
    retryDelay: (failures) => 500 * 2 ** (failures - 1),
    onSuccess: (answer) => holdGame(queryClient, answer.kind === 'drawn' ? answer.result.game : answer.waiting.game),
  });
}
