import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { byName, type PickerUser } from './get-users-by-role.ts';

/** GET /api/users/parent/{id}/role/{role}: a super agent's agents, or the users directly under someone. */
export async function getChildren(parentId: number, role: 'agent' | 'user'): Promise<PickerUser[]> {
  const users = await api<PublicUser[]>(`/api/users/parent/${parentId}/role/${role}`, { query: { limit: 1000 } });
  return users.map(({ id, username, fullName }) => ({ id, username, fullName })).sort(byName);
}

export const childrenQuery = (parentId: number, role: 'agent' | 'user') =>
  queryOptions({
    queryKey: ['users', 'parent', parentId, 'role', role, 'picker'],
    queryFn: () => getChildren(parentId, role),
  });

export function useChildren(parentId: number | null, role: 'agent' | 'user') {
  return useQuery({ ...childrenQuery(parentId ?? 0, role), enabled: parentId !== null });
}
