import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, salesHistoryQueryKey, toSalesPage, type SalesPage, type SalesWindow } from './sales-page.ts';

/** One player's games. */
export type UserSalesQuery = SalesWindow & { userId: number };

/** GET /api/sales-history/user/{id} (docs/product/screens.md#game-history), newest first. */
export async function getUserSales({ userId, ...window }: UserSalesQuery): Promise<SalesPage> {
  return toSalesPage(await apiPage<Sale>(`/api/sales-history/user/${userId}`, { query: pageQuery(window) }));
}

export const userSalesQuery = (query: UserSalesQuery) =>
  queryOptions({
    queryKey: [...salesHistoryQueryKey, 'user', query],
    queryFn: () => getUserSales(query),
    // The table and totals keep what they show while the next page or filter loads.
    placeholderData: keepPreviousData,
  });

export function useUserSales(query: UserSalesQuery) {
  return useQuery(userSalesQuery(query));
}
