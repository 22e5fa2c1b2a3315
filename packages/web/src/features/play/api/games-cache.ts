import type { QueryClient } from '@tanstack/react-query';
import type { Game } from '@lot/domain/schemas/games';

/**
 * The play screen's game: the one the server says is in play (GET /api/games/current), then the
 * game the screen holds, whatever becomes of it (a settled game stays on screen until New Game).
 * Every call that answers a game writes it here.
 */
export const playGameQueryKey = ['games', 'play'] as const;

export const ENDED_STATUSES: readonly Game['status'][] = ['settled', 'voided', 'discarded'];

export const isEnded = (game: Pick<Game, 'status'>) => ENDED_STATUSES.includes(game.status);

export function holdGame(queryClient: QueryClient, game: Game | null) {
  queryClient.setQueryData<Game | null>(playGameQueryKey, game);
}
