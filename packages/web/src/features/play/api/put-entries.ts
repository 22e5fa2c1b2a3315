import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Participant } from '@lot/domain/game';
import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';
import { holdGame } from './games-cache.ts';

export type PutEntries = { gameId: number; entries: Participant[] };

/**
 * PUT /api/games/{id}/entries: the whole list of participants, in the order they were entered.
 * Refused (409) once something is drawn.
 */
export function putEntries({ gameId, entries }: PutEntries): Promise<Game> {
  return api<Game>(`/api/games/${gameId}/entries`, {
    method: 'PUT',
    body: { entries: entries.map(({ number, name, phoneNumber }) => ({ number, name, phoneNumber })) },
  });
}

export function usePutEntries() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: putEntries, onSuccess: (game) => holdGame(queryClient, game) });
}
