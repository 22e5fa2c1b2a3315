import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@lot/domain/schemas/users';
import { logoQueryKey } from '../../../components/ui/avatar.tsx';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { profileQueryKey } from './get-profile.ts';

export type UpdateProfileInput = {
  userId: number;
  fullName: string;
  shopName: string;
  /** A new logo; it replaces the current one. */
  logo?: File | null;
  /** Drop the current logo (ignored when a new one is sent). */
  removeLogo?: boolean;
};

export type UpdateProfileResponse = { message: string; user: User };

/** The profile page sends multipart form data, the logo as a file part. */
export function updateProfile({ userId, fullName, shopName, logo, removeLogo }: UpdateProfileInput) {
  const form = new FormData();
  form.set('fullName', fullName);
  form.set('shopName', shopName);
  if (logo) form.set('logo', logo);
  else if (removeLogo) form.set('removeLogo', 'true');
  return api<UpdateProfileResponse>(`/api/users/${userId}`, { method: 'PUT', body: form });
}

/**
 * Saves the profile, then merges the result into the session user (docs/product/screens.md#session) so the
 * sidebar and header show the new name at once, and makes every avatar fetch the logo again.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user }) => {
      updateUser({ fullName: user.fullName, shopName: user.shopName, hasLogo: user.hasLogo });
      queryClient.setQueryData(profileQueryKey(user.id), user);
      // A removed logo must not come back from the cache if a new one is uploaded later.
      if (user.hasLogo) void queryClient.invalidateQueries({ queryKey: logoQueryKey(user.id) });
      else queryClient.removeQueries({ queryKey: logoQueryKey(user.id) });
    },
  });
}
