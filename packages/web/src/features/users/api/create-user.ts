import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, UserStatus } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type CreateUserRequest = {
  username: string;
  password: string;
  fullName: string;
  shopName: string | null;
  role: Role;
  status?: UserStatus;
  /** Left out where the server fixes it (an agent's users, a super agent's agents). */
  parentId?: number | null;
};

export const createUser = (input: CreateUserRequest) => api<User>('/api/users', { method: 'POST', body: input });

/** docs/product/screens.md#reloading: after a create the lists (and the dashboard counts) reload. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
