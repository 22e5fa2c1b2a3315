import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Role } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type ParentOption = Pick<User, 'id' | 'username' | 'fullName' | 'role'>;

/** The server's largest page: a parent picker lists every candidate at once. */
const PARENT_LIMIT = 1000;

/** Who may be chosen as parent: super agents for an agent; super agents and agents for a user. */
export async function getParentOptions(roles: readonly Role[]): Promise<ParentOption[]> {
  const lists = await Promise.all(
    roles.map((role) => api<User[]>(`/api/users/role/${role}`, { query: { limit: PARENT_LIMIT } })),
  );
  return lists
    .flat()
    .map(({ id, username, fullName, role }) => ({ id, username, fullName, role }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName) || a.username.localeCompare(b.username));
}

export const parentOptionsQuery = (roles: readonly Role[]) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'parents', roles],
    queryFn: () => getParentOptions(roles),
  });

export function useParentOptions(roles: readonly Role[], enabled = true) {
  return useQuery({ ...parentOptionsQuery(roles), enabled: enabled && roles.length > 0 });
}
