import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SearchResult } from '@lot/domain/schemas/search';
import { api } from '../../../lib/api-client.ts';

/** GET /api/search?q= (decision 022): people in the caller's scope and games the caller may read. */
export function getSearch(q: string): Promise<SearchResult> {
  return api<SearchResult>('/api/search', { query: { q } });
}

export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: ['search', q],
    queryFn: () => getSearch(q),
    staleTime: 30_000,
    // While the next answer is on its way the last one stays in the list (no flicker per letter).
    placeholderData: keepPreviousData,
  });

/** The search for a (debounced) text; nothing is asked while it is empty. */
export function useSearch(q: string) {
  return useQuery({ ...searchQuery(q), enabled: q !== '' });
}
