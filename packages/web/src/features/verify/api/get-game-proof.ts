import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GameProof } from '@lot/domain/schemas/games';
import { api, ApiError } from '../../../lib/api-client.ts';

/** GET /api/verify/{code}: public, no sign-in; names and phones masked, the seed once the game ended. */
export function getGameProof(code: string): Promise<GameProof> {
  return api<GameProof>(`/api/verify/${encodeURIComponent(code)}`, { anonymous: true });
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

export const gameProofQuery = (code: string) =>
  queryOptions({
    queryKey: ['verify', code],
    queryFn: () => getGameProof(code),
    retry: (failures, error) => !isNotFound(error) && failures < 2,
  });

export function useGameProof(code: string) {
  return useQuery(gameProofQuery(code));
}
