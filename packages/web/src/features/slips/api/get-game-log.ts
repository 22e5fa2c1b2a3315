import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GameLogInfo } from '@lot/domain/schemas/log';
import { api } from '../../../lib/api-client.ts';

/** GET /api/log: the game log's origin and the witnesses of its freezes, as an entry slip prints them. */
export const gameLogQuery = () =>
  queryOptions({
    queryKey: ['game-log'] as const,
    queryFn: () => api<GameLogInfo>('/api/log'),
    staleTime: 5 * 60_000,
  });

export const useGameLog = () => useQuery(gameLogQuery());
