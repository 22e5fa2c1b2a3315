import type { GameBeacon, GameProof } from '@lot/domain/schemas/games';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A moment to the second (beacon rounds are seconds apart): 'Nov 22, 4:05:12 PM', in the viewer's zone. */
export function clock(at: number | string): string {
  const date = new Date(at);
  const hours = date.getHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hours % 12 || 12}:${pad(date.getMinutes())}:${pad(
    date.getSeconds(),
  )} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A span of time in words: '3 s', '2 min 5 s'. */
export function span(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * A LOT-DRAW-2 game whose round R is named but not in the proof yet: frozen and waiting for it, or
 * voided before the server fetched it (its unplayed draws show once it has).
 */
export function waitingRound(proof: GameProof): (GameBeacon & { round: number }) | null {
  const beacon = proof.beacon;
  if (proof.status !== 'drawing' && proof.status !== 'voided') return null;
  if (!beacon || beacon.round === null || beacon.signature !== null) return null;
  return { ...beacon, round: beacon.round };
}

/**
 * 'Waiting for public randomness (round R)…' and when it comes: 'expected at 4:05:12 PM (in 3 s)',
 * or, once its time has passed (the server fetches it at the next draw, or as the proof of a voided
 * game is read), when it was due.
 */
export function waitingText(proof: GameProof, round: number, expectedAt: string | null, now: number): string {
  const head = `Waiting for public randomness (round ${round})…`;
  const at = expectedAt === null ? NaN : Date.parse(expectedAt);
  const voided = proof.status === 'voided';
  if (Number.isNaN(at)) return head;
  if (at > now) {
    const soon = at - now < 1000 ? 'any moment now' : `in ${span(at - now)}`;
    return `${head} Expected at ${clock(at)} (${soon}): ${
      voided ? 'then the draws the voided game would have made are shown.' : 'nothing can be drawn before it exists.'
    }`;
  }
  return `${head} It was due at ${clock(at)} (${span(now - at)} ago): ${
    voided
      ? 'the draws the voided game would have made are shown as soon as the server has fetched it.'
      : 'the numbers are drawn as soon as the shop or its agent draws again.'
  }`;
}
