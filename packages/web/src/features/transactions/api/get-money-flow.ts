import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@lot/domain/schemas/balance';
import { apiPage } from '../../../lib/api-client.ts';
import { transactionsQueryKey } from './get-transactions.ts';

export type FlowDirection = 'sent' | 'received';

export const moneyFlowQuery = (direction: FlowDirection) =>
  queryOptions({ queryKey: [...transactionsQueryKey, 'flow', direction], queryFn: () => getMoneyFlow(direction) });

/** How much money went one way, and in how many transactions. */
export type MoneyFlow = { amount: string; count: number };

/**
 * The sum of the caller's transactions one way, computed by the database over all of them (one row
 * is fetched; the totals come in X-Total-Amount and X-Total-Count): sent is what left the balance
 * (transfers out, game pools), received what came in (top-ups, transfers in).
 */
export async function getMoneyFlow(direction: FlowDirection): Promise<MoneyFlow> {
  const { total, headers } = await apiPage<Transaction>('/api/transactions', { query: { direction, limit: 1 } });
  return { amount: headers.get('x-total-amount') ?? '0.00', count: total };
}

/** Under ['transactions'], so a transfer refreshes it. */
export function useMoneyFlow(direction: FlowDirection) {
  return useQuery(moneyFlowQuery(direction));
}
