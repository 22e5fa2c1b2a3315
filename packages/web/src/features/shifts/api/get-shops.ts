import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';

export type ShopOption = { id: number; username: string; name: string };

/** GET /api/users/role/user: the shops in the caller's scope, for the Shifts list's shop filter. */
export async function getShops(): Promise<ShopOption[]> {
  const users = await api<User[]>('/api/users/role/user', { query: { limit: 1000 } });
  return users
    .map(({ id, username, fullName, shopName }) => ({ id, username, name: shopName?.trim() || fullName }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.username.localeCompare(b.username));
}

export const shopsQuery = () => queryOptions({ queryKey: ['users', 'role', 'user', 'shops'], queryFn: getShops });

export function useShops() {
  return useQuery(shopsQuery());
}
