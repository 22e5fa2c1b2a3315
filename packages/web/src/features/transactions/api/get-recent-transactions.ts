import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@lot/domain/schemas/balance';
import { apiPage } from '../../../lib/api-client.ts';

export const recentTransactionsQuery = () =>
  queryOptions({ queryKey: ['transactions', 'recent'], queryFn: getRecentTransactions });

/** docs/product/screens.md: the dashboard shows the 5 latest transactions. */
export const RECENT_TRANSACTIONS = 5;

export type RecentTransactions = { items: Transaction[]; total: number; volume: string };

/** The latest rows, with the volume of every transaction (X-Total-Amount) from the same call. */
export async function getRecentTransactions(): Promise<RecentTransactions> {
  const { items, total, headers } = await apiPage<Transaction>('/api/transactions', {
    query: { limit: RECENT_TRANSACTIONS },
  });
  return { items, total, volume: headers.get('x-total-amount') ?? '0.00' };
}

/** Under ['transactions'], so a top-up or a transfer refreshes it. */
export function useRecentTransactions() {
  return useQuery(recentTransactionsQuery());
}
