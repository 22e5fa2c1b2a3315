import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { EmptyState, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { SALES_PAGE_SIZE, type SalesPage } from '../api/sales-page.ts';
import { SalesTable, type SalesColumn } from './sales-table.tsx';

/**
 * A history list's states: loading, the Error panel with Try Again, the two empty texts
 * (docs/product/validation-and-errors.md), or the table and its pagination.
 */
export function SalesResults({
  query,
  page,
  onPage,
  filtered,
  hide,
  action,
  emptyAction,
}: {
  query: UseQueryResult<SalesPage>;
  page: number;
  onPage: (page: number) => void;
  /** Whether any filter is set: it decides which empty text fits. */
  filtered: boolean;
  hide?: readonly SalesColumn[];
  action?: { header: string; render: (sale: Sale) => ReactNode };
  /** Shown under the empty text when there is no history at all (a user's Play a Game link). */
  emptyAction?: ReactNode;
}) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorPanel message="Failed to fetch sales history" onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (items.length === 0 && total === 0)
    return filtered ? (
      <EmptyState message="No games match the selected filters." />
    ) : (
      <EmptyState message="No game history found.">{emptyAction}</EmptyState>
    );
  return (
    <div
      className={`space-y-4 transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`}
      aria-busy={query.isFetching}
    >
      <SalesTable sales={items} hide={hide} action={action} />
      <Pagination page={page} pageSize={SALES_PAGE_SIZE} total={total} onPage={onPage} />
    </div>
  );
}
