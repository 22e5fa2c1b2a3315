import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '../../../lib/api-client.ts';
import { gamesListQueryKey } from './get-voided-games.ts';

/** How many games were voided in the caller's scope: one row is asked for, the count is X-Total-Count. */
export async function getVoidedCount(): Promise<number> {
  const { total } = await apiPage<unknown>('/api/games', { query: { status: 'voided', limit: 1 } });
  return total;
}

export const voidedCountQuery = () =>
  queryOptions({ queryKey: [...gamesListQueryKey, 'voided', 'count'], queryFn: getVoidedCount });

export function useVoidedCount() {
  return useQuery(voidedCountQuery());
}
