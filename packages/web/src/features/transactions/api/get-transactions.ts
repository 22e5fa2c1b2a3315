import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Transaction } from '@lot/domain/schemas/balance';
import { apiPage } from '../../../lib/api-client.ts';

/** docs/product/screens.md: transactions are shown 10 to a page. */
export const TRANSACTIONS_PAGE_SIZE = 10;

/** The filter the screen offers (docs/product/screens.md#transactions: all, topup, transfer). */
export type TransactionTypeFilter = 'all' | 'topup' | 'transfer';

export type TransactionsQuery = {
  page: number;
  pageSize?: number;
  type?: TransactionTypeFilter;
  search?: string;
};

/** Every transactions list lives under this key, so one invalidation refreshes them all. */
export const transactionsQueryKey = ['transactions'] as const;

/** One page, paged by the server; the total comes from X-Total-Count. */
export function getTransactions({ page, pageSize = TRANSACTIONS_PAGE_SIZE, type = 'all', search }: TransactionsQuery) {
  return apiPage<Transaction>('/api/transactions', {
    query: {
      limit: pageSize,
      offset: (page - 1) * pageSize,
      type: type === 'all' ? undefined : type,
      search: search?.trim() || undefined,
    },
  });
}

export function useTransactions(query: TransactionsQuery) {
  return useQuery({
    queryKey: [...transactionsQueryKey, query],
    queryFn: () => getTransactions(query),
    // The table keeps the rows it shows while the next page or filter loads, instead of flashing.
    placeholderData: keepPreviousData,
  });
}
