import type { DrawResult, DrawWaiting } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

export type DrawOutcome = { kind: 'drawn'; result: DrawResult } | { kind: 'waiting'; waiting: DrawWaiting };

/**
 * POST /api/games/{id}/draws as the shop's upline, on a frozen game: draws the next position (200),
 * or — a LOT-DRAW-2 game whose round R is not published yet — answers 202 with when to ask again.
 * Asking for a position already drawn answers that draw again, so a resent request draws nothing new.
 */
export async function drawNext(gameId: number, position: number): Promise<DrawOutcome> {
  const body = await api<DrawResult | DrawWaiting>(`/api/games/${gameId}/draws`, {
    method: 'POST',
    body: { position },
  });
  return 'waitingForRound' in body ? { kind: 'waiting', waiting: body } : { kind: 'drawn', result: body };
}
