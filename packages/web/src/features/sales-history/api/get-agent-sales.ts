import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { apiPage } from '../../../lib/api-client.ts';
import { pageQuery, salesHistoryQueryKey, toSalesPage, type SalesPage, type SalesWindow } from './sales-page.ts';

/** An agent's users' games, optionally narrowed to one user. */
export type AgentSalesQuery = SalesWindow & { agentId: number; userId: number | null };

/** GET /api/sales-history/agent/{id} (docs/product/screens.md#agent-sales-history), newest first. */
export async function getAgentSales({ agentId, userId, ...window }: AgentSalesQuery): Promise<SalesPage> {
  return toSalesPage(
    await apiPage<Sale>(`/api/sales-history/agent/${agentId}`, {
      query: { userId: userId ?? undefined, ...pageQuery(window) },
    }),
  );
}

export const agentSalesQuery = (query: AgentSalesQuery) =>
  queryOptions({
    queryKey: [...salesHistoryQueryKey, 'agent', query],
    queryFn: () => getAgentSales(query),
    placeholderData: keepPreviousData,
  });

export function useAgentSales(query: AgentSalesQuery) {
  return useQuery(agentSalesQuery(query));
}
