import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCents, type Cents } from '@lot/domain/money';
import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';
import { holdGame } from './games-cache.ts';

export type GameSetup = { startRange: number; endRange: number; betCents: Cents };

/**
 * POST /api/games: opens a game with the range and the bet; the server fixes its prizes (the
 * player's effective active winner settings), its code and the commitment to its seed.
 */
export function openGame(setup: GameSetup): Promise<Game> {
  return api<Game>('/api/games', {
    method: 'POST',
    body: { startRange: setup.startRange, endRange: setup.endRange, betAmount: formatCents(setup.betCents) },
  });
}

export function useOpenGame() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: openGame, onSuccess: (game) => holdGame(queryClient, game) });
}
