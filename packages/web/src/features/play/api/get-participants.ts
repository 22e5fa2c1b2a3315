import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RememberedParticipant } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

/** GET /api/games/participants: names and phones this shop used before, most recently used first. */
export function getRememberedParticipants(search: string): Promise<RememberedParticipant[]> {
  return api<RememberedParticipant[]>(`/api/games/participants?limit=5&search=${encodeURIComponent(search)}`);
}

/** Suggestions once two characters are typed; the last answer stays while the next loads. */
export function useRememberedParticipants(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['games', 'participants', term],
    queryFn: () => getRememberedParticipants(term),
    enabled: term.length >= 2,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
