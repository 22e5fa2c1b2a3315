import { DEFAULT_PINS, type PinnedChain } from '@lot/domain/verify';

/**
 * The beacon chains the verify page trusts: drand quicknet always, and one more when the page's
 * address pins it (`?chain=HASH&publicKey=HEX`): a test chain, or a chain LOT moves to later. The
 * page says which pin a proof was checked against, so a link that pins a chain of its own is seen.
 */
export type VerifyPins = {
  pins: readonly PinnedChain[];
  /** The chain the address pins, when it names a well-formed one. */
  linked: PinnedChain | null;
  /** The address tried to pin a chain but its hash or key is not well-formed: nothing was pinned. */
  malformed: boolean;
};

export const LINKED_CHAIN_NAME = 'the chain pinned by this link';

const CHAIN_HASH = /^[0-9a-f]{64}$/;
const PUBLIC_KEY = /^[0-9a-f]{192}$/;

export function pinsFrom(params: URLSearchParams): VerifyPins {
  const chain = params.get('chain')?.trim().toLowerCase();
  const publicKey = params.get('publicKey')?.trim().toLowerCase();
  if (chain === undefined && publicKey === undefined) return { pins: DEFAULT_PINS, linked: null, malformed: false };
  if (!chain || !publicKey || !CHAIN_HASH.test(chain) || !PUBLIC_KEY.test(publicKey)) {
    return { pins: DEFAULT_PINS, linked: null, malformed: true };
  }
  const linked: PinnedChain = { chainHash: chain, publicKey, name: LINKED_CHAIN_NAME };
  return { pins: [...DEFAULT_PINS, linked], linked, malformed: false };
}

/** A long hex value cut to its first and last 8 characters, as the page names a chain. */
export const shortHex = (hex: string) => (hex.length > 20 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex);
