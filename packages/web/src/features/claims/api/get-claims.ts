import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClaimsList, ClaimStatus, PrizeClaim } from '@lot/domain/schemas/claims';
import { apiPage } from '../../../lib/api-client.ts';

export const CLAIMS_PAGE_SIZE = 20;

export type ClaimStatusFilter = ClaimStatus | 'all';

export type ClaimsQuery = {
  status: ClaimStatusFilter;
  userId: number | null;
  from?: string;
  to?: string;
  page: number;
};

/** Every claims list and lookup lives under this key: a payment or an extension refreshes them all. */
export const claimsQueryKey = ['claims'] as const;

/** The query string of the list and of its export (the same filters). */
export const claimsFilterQuery = ({ status, userId, from, to }: Omit<ClaimsQuery, 'page'>) => ({
  status,
  userId: userId ?? undefined,
  from,
  to,
});

/**
 * GET /api/claims: one page of the caller's claims (scoped by the server), newest first, with the
 * whole filtered set's count and amount (X-Total-Count, X-Total-Amount).
 */
export async function getClaims(query: ClaimsQuery): Promise<ClaimsList> {
  const { items, total, headers } = await apiPage<PrizeClaim>('/api/claims', {
    query: { ...claimsFilterQuery(query), page: query.page, pageSize: CLAIMS_PAGE_SIZE },
  });
  const amount = headers.get('x-total-amount') ?? '0.00';
  return { items, total, page: query.page, pageSize: CLAIMS_PAGE_SIZE, totals: { count: total, amount } };
}

export const claimsQuery = (query: ClaimsQuery) =>
  queryOptions({
    queryKey: [...claimsQueryKey, 'list', query],
    queryFn: () => getClaims(query),
    placeholderData: keepPreviousData,
  });

export function useClaims(query: ClaimsQuery) {
  return useQuery(claimsQuery(query));
}
