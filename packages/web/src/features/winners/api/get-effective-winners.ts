import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EffectiveWinners } from '@lot/domain/schemas/winners';
import { api } from '../../../lib/api-client.ts';
import { winnersQueryKey } from './get-winners.ts';

/**
 * GET /api/winners/effective: the scheme the player's games actually pay — their own active
 * settings, else the global ones, else none. Under the winners key, so an edit refreshes it.
 */
export function getEffectiveWinners(): Promise<EffectiveWinners> {
  return api<EffectiveWinners>('/api/winners/effective');
}

export const effectiveWinnersQuery = () =>
  queryOptions({ queryKey: [...winnersQueryKey, 'effective'], queryFn: getEffectiveWinners });

export function useEffectiveWinners() {
  return useQuery(effectiveWinnersQuery());
}
