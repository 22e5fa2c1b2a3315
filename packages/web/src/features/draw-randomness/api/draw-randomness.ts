import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DrawRandomness } from '@lot/domain/schemas/randomness';
import { api } from '../../../lib/api-client.ts';

/** Where games get their randomness (decision 061): the admin's card. */
export const drawRandomnessKey = ['admin', 'draw-randomness'] as const;

/** GET /api/admin/draw-randomness: the beacon, the sticky rule, the LOT-DRAW-1 permission, games per shop. */
export const getDrawRandomness = () => api<DrawRandomness>('/api/admin/draw-randomness');

export function useDrawRandomness() {
  return useQuery({ queryKey: drawRandomnessKey, queryFn: getDrawRandomness });
}

/** PUT /api/admin/draw-randomness: allows or stops LOT-DRAW-1 while the beacon is down (audited). */
export const setServerRandomness = (allowed: boolean) =>
  api<DrawRandomness>('/api/admin/draw-randomness', { method: 'PUT', body: { allowed } });

export function useSetServerRandomness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setServerRandomness,
    onSuccess: (answer) => {
      queryClient.setQueryData(drawRandomnessKey, answer);
      return queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}
