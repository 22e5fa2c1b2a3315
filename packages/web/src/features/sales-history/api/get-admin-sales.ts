import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, salesHistoryQueryKey, toSalesPage, type SalesPage, type SalesWindow } from './sales-page.ts';

/** Whose games: a super agent's (all below it), an agent's (its users'), or one user's; none for all. */
export type SalesOwner = { role: 'superagent' | 'agent' | 'user'; userId: number } | null;

export type AdminSalesQuery = SalesWindow & { owner: SalesOwner };

/** GET /api/sales-history/filter (admin), newest first. */
export async function getAdminSales({ owner, ...window }: AdminSalesQuery): Promise<SalesPage> {
  return toSalesPage(
    await apiPage<Sale>('/api/sales-history/filter', {
      query: { role: owner?.role, userId: owner?.userId, ...pageQuery(window) },
    }),
  );
}

export const adminSalesQuery = (query: AdminSalesQuery) =>
  queryOptions({
    queryKey: [...salesHistoryQueryKey, 'admin', query],
    queryFn: () => getAdminSales(query),
    // The table and totals keep what they show while the next page or filter loads.
    placeholderData: keepPreviousData,
  });

export function useAdminSales(query: AdminSalesQuery) {
  return useQuery(adminSalesQuery(query));
}
