import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Role } from '@lot/domain/roles';
import { apiPage } from '../../../lib/api-client.ts';

export const roleCountQuery = (role: Role) =>
  queryOptions({ queryKey: ['users', 'count', role], queryFn: () => getRoleCount(role) });

/** How many users of a role exist: one row is asked for, the count is X-Total-Count. */
export async function getRoleCount(role: Role): Promise<number> {
  const { total } = await apiPage<unknown>(`/api/users/role/${role}`, { query: { limit: 1 } });
  return total;
}

/** Under ['users'], so every create or delete on the users screens refreshes the counts. */
export function useRoleCount(role: Role) {
  return useQuery(roleCountQuery(role));
}
