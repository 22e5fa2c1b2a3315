import { useMutation } from '@tanstack/react-query';
import type { TwoFactorEnrolment } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';

export const startEnrolment = () => api<TwoFactorEnrolment>('/api/auth/two-factor/enrol', { method: 'POST' });

/** A new secret for the authenticator app, waiting for its first code (never cached). */
export function useStartEnrolment() {
  return useMutation({ mutationFn: startEnrolment });
}
