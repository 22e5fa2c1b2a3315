import { useQuery } from '@tanstack/react-query';
import type { GameProof } from '@lot/domain/schemas/games';
import { NO_LOG_PINS, verifyProof, type LogPins, type PinnedChain } from '@lot/domain/verify';

/** The check in this browser, timed (the page's budget: docs/decisions/033-public-randomness-beacon.md). */
async function timedCheck(proof: GameProof, pins: readonly PinnedChain[], logPins: LogPins) {
  const started = performance.now();
  const report = await verifyProof(proof, pins, logPins);
  return { report, ms: performance.now() - started };
}

/**
 * A game's proof checked in this browser against the pinned beacon chains and game-log keys (verifyProof), once per
 * proof as published: the proof page and the customer display run the same check.
 */
export function useProofCheck(proof: GameProof, pins: readonly PinnedChain[], logPins: LogPins = NO_LOG_PINS) {
  return useQuery({
    queryKey: ['proof-check', proof.code, proof, pins, logPins],
    queryFn: () => timedCheck(proof, pins, logPins),
    retry: false,
    staleTime: Infinity,
  });
}
