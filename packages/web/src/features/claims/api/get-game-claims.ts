import { useQuery } from '@tanstack/react-query';
import type { ClaimsList, PrizeClaim } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { claimsQueryKey } from './get-claims.ts';

/** The claims of one of the shop's games (its sale), by winner id, for its winners page. A game has at most 100 prizes. */
export function useGameClaims(saleId: number | null) {
  return useQuery({
    queryKey: [...claimsQueryKey, 'sale', saleId],
    enabled: saleId !== null,
    queryFn: async () => {
      const list = await api<ClaimsList>('/api/claims', {
        query: { status: 'all', saleId: saleId ?? 0, pageSize: 200 },
      });
      return new Map<number, PrizeClaim>(list.items.map((claim) => [claim.winnerId, claim]));
    },
  });
}
