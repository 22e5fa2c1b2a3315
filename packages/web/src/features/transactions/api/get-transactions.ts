import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@lot/domain/schemas/balance';
import { apiPage } from '../../../lib/api-client.ts';

/** docs/product/screens.md: transactions are shown 10 to a page. */
export const TRANSACTIONS_PAGE_SIZE = 10;

/** The filter the screen offers (docs/product/screens.md#transactions: all, topup, transfer, game, takeback). */
export type TransactionTypeFilter = 'all' | 'topup' | 'transfer' | 'game' | 'takeback';

export type TransactionsQuery = {
  page: number;
  pageSize?: number;
  type?: TransactionTypeFilter;
  search?: string;
};

/** Every transactions list lives under this key, so one invalidation refreshes them all. */
export const transactionsQueryKey = ['transactions'] as const;

/**
 * One page and the totals of the whole filtered set, computed by the database: the count
 * (X-Total-Count) and the money in, out and net as the rows are signed (X-Total-In, X-Total-Out,
 * X-Total-Net).
 */
export type TransactionsPage = {
  items: Transaction[];
  total: number;
  totalIn: string;
  totalOut: string;
  net: string;
};

/** One page, paged by the server, with the filtered set's totals. */
export async function getTransactions({
  page,
  pageSize = TRANSACTIONS_PAGE_SIZE,
  type = 'all',
  search,
}: TransactionsQuery): Promise<TransactionsPage> {
  const { items, total, headers } = await apiPage<Transaction>('/api/transactions', {
    query: {
      limit: pageSize,
      offset: (page - 1) * pageSize,
      type: type === 'all' ? undefined : type,
      search: search?.trim() || undefined,
    },
  });
  return {
    items,
    total,
    totalIn: headers.get('x-total-in') ?? '0.00',
    totalOut: headers.get('x-total-out') ?? '0.00',
    net: headers.get('x-total-net') ?? '0.00',
  };
}

export const transactionsQuery = (query: TransactionsQuery) =>
  queryOptions({
    queryKey: [...transactionsQueryKey, query],
    queryFn: () => getTransactions(query),
    // The table keeps the rows it shows while the next page or filter loads, instead of flashing.
    placeholderData: keepPreviousData,
  });

export function useTransactions(query: TransactionsQuery) {
  return useQuery(transactionsQuery(query));
}
