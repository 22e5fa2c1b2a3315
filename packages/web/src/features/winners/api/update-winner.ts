import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Winner } from '@lot/domain/schemas/winners';
import { api } from '../../../lib/api-client.ts';
import type { WinnerBody } from './create-winner.ts';
import { winnersQueryKey } from './get-winners.ts';

/** The owner of a configuration never changes: the body repeats the one it has. */
export function updateWinner({ id, ...body }: WinnerBody & { id: number }): Promise<Winner> {
  return api<Winner>(`/api/winners/${id}`, { method: 'PUT', body });
}

export function useUpdateWinner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWinner,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: winnersQueryKey }),
  });
}
