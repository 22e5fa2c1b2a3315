import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { pinsFrom, type VerifyPins } from './verify-pins.ts';

/**
 * The beacon chains the end-of-game check trusts, read from the page's address: drand quicknet, and
 * another chain only when the address pins it whole (`?chain=HASH&publicKey=HEX&genesisTime=S&period=S`).
 * The game's own claim about its beacon is never taken for it. The proof page and the customer
 * display read them the same way.
 */
export function usePins(): VerifyPins {
  const [search] = useSearchParams();
  const query = search.toString();
  return useMemo(() => pinsFrom(new URLSearchParams(query)), [query]);
}
