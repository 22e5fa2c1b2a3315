import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Winner } from '@lot/domain/schemas/winners';
import { api } from '../../../lib/api-client.ts';

/** Whose configurations the list shows: everyone's, the global ones, or one user's. */
export type WinnerFilter = 'all' | 'global' | number;

/** Every winners list lives under this key, so one invalidation after a write refreshes them all. */
export const winnersQueryKey = ['winners'] as const;

/**
 * All configurations for the filter in one call: a user has a handful, and the total percentage
 * box needs every active one, not a page of them. One user's come from /api/winners/user/{id},
 * which both the admin and that user may read (the whole list is the admin's alone).
 */
export function getWinners(filter: WinnerFilter): Promise<Winner[]> {
  if (typeof filter === 'number') return api<Winner[]>(`/api/winners/user/${filter}`);
  return api<Winner[]>('/api/winners', { query: { userId: filter === 'all' ? undefined : filter, limit: 1000 } });
}

export const winnersQuery = (filter: WinnerFilter) =>
  queryOptions({ queryKey: [...winnersQueryKey, filter], queryFn: () => getWinners(filter) });

export function useWinners(filter: WinnerFilter) {
  return useQuery(winnersQuery(filter));
}
