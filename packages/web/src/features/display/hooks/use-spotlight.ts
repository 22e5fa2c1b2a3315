import { useEffect, useState } from 'react';
import type { GameDraw } from '@lot/domain/schemas/games';

/** How long a new draw stays large before it settles into the list. */
export const SPOTLIGHT_MS = 3_500;

/**
 * A new draw is shown large first; the grid and the list of draws take it in once it settles.
 * Draws already made when the screen opened (or reconnected after a page load) are simply shown.
 */
export function useSpotlight(draws: readonly GameDraw[]) {
  const [known, setKnown] = useState(draws.length);
  const [spotlight, setSpotlight] = useState<GameDraw | null>(null);
  const [justSettled, setJustSettled] = useState<number | null>(null);
  if (draws.length !== known) {
    setKnown(draws.length);
    const newest = draws[draws.length - 1];
    setSpotlight(draws.length > known && newest ? newest : null);
  }
  useEffect(() => {
    if (!spotlight) return;
    const timer = setTimeout(() => {
      setJustSettled(spotlight.position);
      setSpotlight(null);
    }, SPOTLIGHT_MS);
    return () => clearTimeout(timer);
  }, [spotlight]);
  const settled = spotlight ? draws.filter((draw) => draw.position < spotlight.position) : draws;
  return { spotlight, settled, justSettled };
}
