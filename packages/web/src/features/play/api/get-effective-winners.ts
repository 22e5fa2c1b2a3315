import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EffectiveWinners } from '@lot/domain/schemas/winners';
import { api } from '../../../lib/api-client.ts';

/** The prize positions the game pays: the player's own active settings by position, else the global ones. */
export const effectiveWinnersQueryKey = ['winners', 'effective'] as const;

export function getEffectiveWinners(): Promise<EffectiveWinners> {
  return api<EffectiveWinners>('/api/winners/effective');
}

export const effectiveWinnersQuery = () =>
  queryOptions({ queryKey: effectiveWinnersQueryKey, queryFn: getEffectiveWinners });

export function useEffectiveWinners() {
  return useQuery(effectiveWinnersQuery());
}
