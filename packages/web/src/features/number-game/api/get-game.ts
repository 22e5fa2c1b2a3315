import type { Game } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

/** GET /api/games/{id}: one game, for its player and the people above them. */
export function getGame(id: number): Promise<Game> {
  return api<Game>(`/api/games/${id}`);
}
