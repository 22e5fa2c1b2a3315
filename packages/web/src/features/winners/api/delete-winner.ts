import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { winnersQueryKey } from './get-winners.ts';

export function deleteWinner(id: number): Promise<{ message: string }> {
  return api<{ message: string }>(`/api/winners/${id}`, { method: 'DELETE' });
}

export function useDeleteWinner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWinner,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: winnersQueryKey }),
  });
}
