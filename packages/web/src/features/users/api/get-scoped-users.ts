import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

/** The server's largest page: a super agent's or an agent's people fit in one answer. */
const SCOPE_LIMIT = 1000;

/**
 * Everyone of a role in the caller's scope: the server answers a super agent with its agents
 * or its direct and indirect users, an agent with its direct users. The screens filter (My
 * Users / Agent Users) and count (dashboards) on the client, by parentId (docs/product/roles-and-scope.md#scope).
 */
export function getScopedUsers(role: 'agent' | 'user'): Promise<User[]> {
  return api<User[]>(`/api/users/role/${role}`, { query: { limit: SCOPE_LIMIT } });
}

export const scopedUsersQuery = (role: 'agent' | 'user') =>
  queryOptions({ queryKey: [...usersQueryKey, 'scoped', role], queryFn: () => getScopedUsers(role) });

export function useScopedUsers(role: 'agent' | 'user', enabled = true) {
  return useQuery({ ...scopedUsersQuery(role), enabled });
}

/** After a transfer from a users screen: the balances in the rows are stale. */
export function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: usersQueryKey });
}
