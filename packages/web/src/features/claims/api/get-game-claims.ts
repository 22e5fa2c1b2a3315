import { useQuery } from '@tanstack/react-query';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import type { ClaimsList } from '@lot/domain/schemas/claims';
import { claimsQueryKey } from './get-claims.ts';

/**
 * The claims of one of the shop's games, by winner id, for its winners page: the shop's claims
 * settled within a minute of the game (the list filters by settlement time; its winners' ids pick
 * them out). A game has at most 100 prizes.
 */
export function useGameClaims(settledAt: string | null) {
  return useQuery({
    queryKey: [...claimsQueryKey, 'game', settledAt],
    enabled: settledAt !== null,
    queryFn: async () => {
      const at = new Date(settledAt ?? 0).getTime();
      const list = await api<ClaimsList>('/api/claims', {
        query: {
          status: 'all',
          from: new Date(at - 60_000).toISOString(),
          to: new Date(at + 60_000).toISOString(),
          pageSize: 200,
        },
      });
      return new Map<number, PrizeClaim>(list.items.map((claim) => [claim.winnerId, claim]));
    },
  });
}
