import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-scoped-users.ts';

export type CreateHierarchyUserRequest = {
  username: string;
  password: string;
  fullName: string;
  shopName: string | null;
  /** Spec section 6: a super agent creates agents and users, an agent only users. */
  role: 'agent' | 'user';
  /** Left out where the server fixes it (an agent's users, a super agent's agents). */
  parentId?: number;
};

export const createUser = (input: CreateHierarchyUserRequest) =>
  api<User>('/api/users', { method: 'POST', body: input });

/** Spec section 4: after a create the lists (and the dashboard counts) reload. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
