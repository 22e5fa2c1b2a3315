import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Role } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { apiPage } from '../../../lib/api-client.ts';

export const USERS_PAGE_SIZE = 10;

/** Every list of users lives under this key, so one invalidation after a write reloads them all. */
export const usersQueryKey = ['users'] as const;

export type UsersFilterQuery = { search?: string; status?: 'active' | 'inactive'; parentId?: number };
export type UsersByRoleQuery = UsersFilterQuery & { role: Role; page: number };

/** The API's filters (the list's and its export's): search (username, name or shop), status, parent. */
export function usersApiQuery({ search, status, parentId }: UsersFilterQuery) {
  return { search: search?.trim() || undefined, status, parentId };
}

/** One page of a role's users, paged, searched and filtered by the server; the total comes from X-Total-Count. */
export function getUsersByRole({ role, page, ...filter }: UsersByRoleQuery) {
  return apiPage<User>(`/api/users/role/${role}`, {
    query: { limit: USERS_PAGE_SIZE, offset: (page - 1) * USERS_PAGE_SIZE, ...usersApiQuery(filter) },
  });
}

export const usersByRoleQuery = (query: UsersByRoleQuery) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'role', query],
    queryFn: () => getUsersByRole(query),
    // The table keeps its rows while the next page or search loads, instead of flashing.
    placeholderData: keepPreviousData,
  });

export function useUsersByRole(query: UsersByRoleQuery) {
  return useQuery(usersByRoleQuery(query));
}
