import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Winner } from '@lot/domain/schemas/winners';
import { api } from '../../../lib/api-client.ts';
import { winnersQueryKey } from './get-winners.ts';

/** The body the server takes: percent as a two-decimal string, userId null for a global one. */
export type WinnerBody = {
  name: string;
  percent: string;
  position: number;
  description: string | null;
  isActive: boolean;
  userId: number | null;
};

export function createWinner(body: WinnerBody): Promise<Winner> {
  return api<Winner>('/api/winners', { method: 'POST', body });
}

export function useCreateWinner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWinner,
    // docs/product/screens.md: after a create the list is reloaded.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: winnersQueryKey }),
  });
}
