import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClaimsList, ClaimStatus } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';

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

/** GET /api/claims: one page of the caller's claims (scoped by the server), newest first, with totals. */
export function getClaims(query: ClaimsQuery): Promise<ClaimsList> {
  return api<ClaimsList>('/api/claims', {
    query: { ...claimsFilterQuery(query), page: query.page, pageSize: CLAIMS_PAGE_SIZE },
  });
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
