import { useMutation } from '@tanstack/react-query';
import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

/** The reasons the play screen gives on its own. */
export const VOID_REASONS = {
  reset: 'Reset before the first draw',
  setupChanged: 'Range or bet changed before the first draw',
} as const;

export type VoidRequest = { gameId: number; reason: string };

/**
 * POST /api/games/{id}/void: before any draw the game is discarded (nothing was held); after a
 * draw it is voided, the held pool returns to the balance and the game stays on record.
 */
export function voidGame({ gameId, reason }: VoidRequest): Promise<Game> {
  return api<Game>(`/api/games/${gameId}/void`, { method: 'POST', body: { reason } });
}

export function useVoidGame() {
  return useMutation({ mutationFn: voidGame });
}
