import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';

/** How many matches the picker lists at once; typing narrows them. */
const RECEIVER_LIMIT = 20;

export type Receiver = Pick<PublicUser, 'id' | 'username' | 'fullName'>;

/**
 * Who the caller may send money to, matching the search by username or full name (the server
 * matches case-insensitively). docs/product/screens.md: only active users other than the current user.
 * The server answers a superagent's or an agent's scope including the caller, so the caller is
 * removed here.
 */
export async function getReceivers(search: string, selfId: number): Promise<Receiver[]> {
  const users = await api<PublicUser[]>('/api/users', {
    query: { status: 'active', search: search.trim() || undefined, limit: RECEIVER_LIMIT + 1 },
  });
  return users
    .filter((user) => user.status === 'active' && user.id !== selfId)
    .slice(0, RECEIVER_LIMIT)
    .map(({ id, username, fullName }) => ({ id, username, fullName }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName) || a.username.localeCompare(b.username));
}

export function useReceivers(search: string, selfId: number, enabled = true) {
  return useQuery({
    queryKey: ['receivers', selfId, search.trim().toLowerCase()],
    queryFn: () => getReceivers(search, selfId),
    enabled,
    placeholderData: keepPreviousData,
  });
}
