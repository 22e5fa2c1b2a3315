import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { api } from '../../../lib/api-client.ts';
import { salesHistoryQueryKey } from './sales-page.ts';

/** GET /api/sales-history/{id}: one game with its draw and winners (404 for a game not the caller's). */
export function getSale(id: number): Promise<SaleDetail> {
  return api<SaleDetail>(`/api/sales-history/${id}`);
}

export const saleQuery = (id: number) =>
  queryOptions({
    queryKey: [...salesHistoryQueryKey, 'game', id],
    queryFn: () => getSale(id),
  });

/** `id` null: the address holds no game id at all, so nothing is asked. */
export function useSale(id: number | null) {
  return useQuery({ ...saleQuery(id ?? 0), enabled: id !== null });
}
