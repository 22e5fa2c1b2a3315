import type { Sale } from '@lot/domain/schemas/sales-history';
import type { Paged } from '../../../lib/api-client.ts';

/** docs/product/screens.md: history tables show 10 games to a page, paged by the server. */
export const SALES_PAGE_SIZE = 10;

/** Every history list lives under this key, so a played game refreshes them all. */
export const salesHistoryQueryKey = ['sales-history'] as const;

/** One page of games and the totals of the whole filtered set (computed by the database). */
export type SalesPage = { items: Sale[]; total: number; totalCommission: string };

/** The history lists answer the page as an array and the totals in X-Total-Count / X-Total-Commission. */
export function toSalesPage({ items, total, headers }: Paged<Sale>): SalesPage {
  return { items, total, totalCommission: headers.get('x-total-commission') ?? '0.00' };
}

/** The date filter as the API takes it, plus the page (1-based). */
export type SalesWindow = { from?: string; to?: string; page: number };

export const pageQuery = ({ from, to, page }: SalesWindow) => ({
  from,
  to,
  limit: SALES_PAGE_SIZE,
  offset: (page - 1) * SALES_PAGE_SIZE,
});
