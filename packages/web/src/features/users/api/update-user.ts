import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserStatus } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { api } from '../../../lib/api-client.ts';
import { usersQueryKey } from './get-users-by-role.ts';

export type UpdateUserRequest = {
  id: number;
  fullName: string;
  shopName: string | null;
  /** Left out to keep the current password (docs/product/validation-and-errors.md#user-forms). */
  password?: string;
  status: UserStatus;
  parentId?: number | null;
};

export type UpdateUserResponse = { message: string; user: User };

/** Username and role never change, so they are not sent. */
export const updateUser = ({ id, ...body }: UpdateUserRequest) =>
  api<UpdateUserResponse>(`/api/users/${id}`, { method: 'PUT', body });

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
