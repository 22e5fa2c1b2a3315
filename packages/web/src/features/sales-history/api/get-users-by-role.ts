import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';

export type PickerUser = Pick<PublicUser, 'id' | 'username' | 'fullName'>;

export const byName = (a: PickerUser, b: PickerUser) =>
  a.fullName.localeCompare(b.fullName) || a.username.localeCompare(b.username);

/** GET /api/users/role/{role}: everyone of a role, for a history filter's picker. */
export async function getUsersByRole(role: 'superagent' | 'agent' | 'user'): Promise<PickerUser[]> {
  const users = await api<PublicUser[]>(`/api/users/role/${role}`, { query: { limit: 1000 } });
  return users.map(({ id, username, fullName }) => ({ id, username, fullName })).sort(byName);
}

export const usersByRoleQuery = (role: 'superagent' | 'agent' | 'user') =>
  queryOptions({ queryKey: ['users', 'role', role, 'picker'], queryFn: () => getUsersByRole(role) });

export function useUsersByRole(role: 'superagent' | 'agent' | 'user', enabled = true) {
  return useQuery({ ...usersByRoleQuery(role), enabled });
}
