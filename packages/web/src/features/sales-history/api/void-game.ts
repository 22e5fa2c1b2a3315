import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/games/{id}/void as the shop's upline: a frozen game is voided (its held pool returns to
 * the shop, no prize is paid, the proof shows the draws it would have made); the reason is required.
 * `afterWinner`: the dialog showed that a draw already named a winner (decision 094: without it the
 * server refuses such a void, 422 WINNER_ANNOUNCED).
 */
export function voidGame(gameId: number, reason: string, afterWinner: boolean): Promise<Game> {
  return api<Game>(`/api/games/${gameId}/void`, {
    method: 'POST',
    body: afterWinner ? { reason, afterWinner: true } : { reason },
  });
}
