import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Notifications } from '@lot/domain/schemas/notifications';
import { api } from '../../../lib/api-client.ts';

/** GET /api/notifications (decision 022): the caller's events of the last 7 days. */
export function getNotifications(): Promise<Notifications> {
  return api<Notifications>('/api/notifications');
}

export const notificationsQuery = () =>
  queryOptions({
    queryKey: ['notifications'],
    queryFn: getNotifications,
    // The bell is on every screen: asked when the shell opens, then once a minute at most.
    staleTime: 60_000,
    refetchInterval: 60_000,
  });

export function useNotifications() {
  return useQuery(notificationsQuery());
}
