import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, salesHistoryQueryKey, toSalesPage, type SalesPage, type SalesWindow } from './sales-page.ts';

/** A super agent's games, optionally narrowed to one of its agents' users or one user. */
export type SuperagentSalesQuery = SalesWindow & {
  superagentId: number;
  agentId: number | null;
  userId: number | null;
};

/** GET /api/sales-history/superagent/{id} (docs/product/screens.md#superagent-sales-history), newest first. */
export async function getSuperagentSales({
  superagentId,
  agentId,
  userId,
  ...window
}: SuperagentSalesQuery): Promise<SalesPage> {
  return toSalesPage(
    await apiPage<Sale>(`/api/sales-history/superagent/${superagentId}`, {
      query: { agentId: agentId ?? undefined, userId: userId ?? undefined, ...pageQuery(window) },
    }),
  );
}

export const superagentSalesQuery = (query: SuperagentSalesQuery) =>
  queryOptions({
    queryKey: [...salesHistoryQueryKey, 'superagent', query],
    queryFn: () => getSuperagentSales(query),
    // The table and totals keep what they show while the next page or filter loads.
    placeholderData: keepPreviousData,
  });

export function useSuperagentSales(query: SuperagentSalesQuery) {
  return useQuery(superagentSalesQuery(query));
}
