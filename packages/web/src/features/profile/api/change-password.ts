import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput, changePasswordResponseSchema } from '@lot/domain/schemas/auth';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';

export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

export const changePassword = (input: ChangePasswordInput) =>
  api<ChangePasswordResponse>('/api/auth/change-password', { method: 'POST', body: input });

/** The change ends every older token, this one included: the session goes on with the new one. */
export function useChangePassword() {
  const { replaceToken } = useAuth();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ accessToken }) => replaceToken(accessToken),
  });
}
