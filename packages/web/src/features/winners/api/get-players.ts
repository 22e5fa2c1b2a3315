import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';

export type Player = Pick<PublicUser, 'id' | 'username' | 'fullName'>;

/** Users of role user: only they own winner settings (the pickers of the filter and the form). */
export async function getPlayers(): Promise<Player[]> {
  const users = await api<PublicUser[]>('/api/users/role/user', { query: { limit: 1000 } });
  return users
    .map(({ id, username, fullName }) => ({ id, username, fullName }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName) || a.username.localeCompare(b.username));
}

export const playersQuery = () => queryOptions({ queryKey: ['users', 'role', 'user', 'players'], queryFn: getPlayers });

export function usePlayers() {
  return useQuery(playersQuery());
}
