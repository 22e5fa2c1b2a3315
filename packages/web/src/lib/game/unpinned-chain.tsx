import { UNPINNED_CHAIN } from '@lot/domain/unpinned-chain';

/**
 * "Public randomness from chain {hash}: not drand quicknet; pin it to check" (unpinnedChainText),
 * the hash in monospace and the only part that may break inside, so a phone wraps it cleanly.
 */
export function UnpinnedChain({ chainHash }: { chainHash: string }) {
  return (
    <>
      {UNPINNED_CHAIN.before}
      <span className="break-all font-mono text-[0.9em]">{chainHash}</span>
      {UNPINNED_CHAIN.after}
    </>
  );
}
