import { useQuery } from '@tanstack/react-query';
import type { GameProof } from '@lot/domain/schemas/games';
import { verifyProof, type PinnedChain } from '@lot/domain/verify';

/** The check in this browser, timed (the page's budget: docs/decisions/033-public-randomness-beacon.md). */
async function timedCheck(proof: GameProof, pins: readonly PinnedChain[]) {
  const started = performance.now();
  const report = await verifyProof(proof, pins);
  return { report, ms: performance.now() - started };
}

/**
 * A game's proof checked in this browser against the pinned beacon chains (verifyProof), once per
 * proof as published: the proof page and the customer display run the same check.
 */
export function useProofCheck(proof: GameProof, pins: readonly PinnedChain[]) {
  return useQuery({
    queryKey: ['proof-check', proof.code, proof, pins],
    queryFn: () => timedCheck(proof, pins),
    retry: false,
    staleTime: Infinity,
  });
}
