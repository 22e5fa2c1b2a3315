import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';

export const profileQueryKey = (userId: number) => ['users', 'detail', userId] as const;

export const getProfile = (userId: number) => api<User>(`/api/users/${userId}`);

export const profileQuery = (userId: number) =>
  queryOptions({ queryKey: profileQueryKey(userId), queryFn: () => getProfile(userId) });

/** The signed-in user's full record (shop name, status, parent) as the server has it now. */
export function useProfile(userId: number) {
  return useQuery(profileQuery(userId));
}
