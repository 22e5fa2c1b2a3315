import { useQuery } from '@tanstack/react-query';
import type { Session } from '@lot/domain/schemas/auth';
import { api } from '../../../lib/api-client.ts';

export const sessionsKey = ['sessions'] as const;

export const getSessions = () => api<Session[]>('/api/auth/sessions');

/** The caller's active sessions, the most recently used first; `current` is this browser's. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: getSessions });
}
