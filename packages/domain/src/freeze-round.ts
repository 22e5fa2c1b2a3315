import { firstRoundAfter, roundTimeMs, type BeaconChain } from './beacon.ts';

/**
 * Which beacon round R a LOT-DRAW-2 freeze names (docs/lot-draw-2.md section 4, decision 076): from
 * evidence, not from the server's clock alone. The server asks the relays for the latest round L
 * (verified under the pinned key) just before the freeze; L is public, and no relay had L + 1, so
 * the beacon's time is somewhere from roundTime(L) to about roundTime(L + 1). R is the first round
 * that is at least `marginMs` after both that and the server's own clock, so R was not public at the
 * freeze even when the clock was set back, and the witnesses have room to cosign the freeze before R.
 */

/**
 * The room between the freeze and R's publication by default: DRAW_FREEZE_MARGIN_MS. On quicknet
 * R is L + 2 while the relays answer within the other second of the period.
 */
export const FREEZE_MARGIN_MS = 2_000;
/** The least margin: a witness's cosignature must land at least 1 s before R is published. */
export const MIN_FREEZE_MARGIN_MS = 1_000;
/** The most margin: a game waits about this long plus a period for its round. */
export const MAX_FREEZE_MARGIN_MS = 60_000;
/**
 * How far the server's clock may stand from the beacon's time (from roundTime(L) to roundTime(L + 1))
 * before a freeze is refused: further behind, the game's times would be wrong by that much; further
 * ahead, the game would wait that long for its round.
 */
export const CLOCK_TOLERANCE_MS = 60_000;

export type FreezeRoundInput = {
  /** L: the latest round a relay answered, its signature verified. */
  latest: number;
  /** The server's clock (unix ms) when R is chosen. */
  now: number;
  /** The room the freeze leaves before R is published (ms). */
  marginMs: number;
};

/**
 * Why a LOT-DRAW-2 game may not freeze now: no relay answered a verified latest round; a relay has
 * round R already; the server's clock is more than CLOCK_TOLERANCE_MS off the beacon's evidence;
 * asking the relays whether they have R took more than half the margin (a server that stalled).
 */
export type FreezeRefusal = 'no latest round' | 'round public' | 'clock behind' | 'clock ahead' | 'too slow';

export type FreezeRound = { round: number } | { refused: Extract<FreezeRefusal, 'clock behind' | 'clock ahead'> };

/**
 * R for a freeze (decision 076), or why the server's clock is too far from the beacon to freeze:
 *
 *     byEvidence = L + 1 + ceil(margin / period)      (roundTime(R) ≥ roundTime(L + 1) + margin)
 *     byClock    = firstRoundAfter(now + margin)        (roundTime(R) > now + margin)
 *     R          = max(byEvidence, byClock)
 *
 * refused `clock behind` when now < roundTime(L) − CLOCK_TOLERANCE_MS, `clock ahead` when
 * now > roundTime(L + 1) + CLOCK_TOLERANCE_MS. So R > L always, and R is never public when it is
 * named: a clock set back only makes byClock smaller, and then L decides.
 */
export function freezeRound(chain: Pick<BeaconChain, 'genesisTime' | 'period'>, input: FreezeRoundInput): FreezeRound {
  const { latest, now, marginMs } = input;
  if (!Number.isSafeInteger(latest) || latest < 1) throw new RangeError(`not a beacon round: ${latest}`);
  if (!Number.isFinite(now)) throw new RangeError(`not a time: ${now}`);
  if (!Number.isFinite(marginMs) || marginMs < 0) throw new RangeError(`not a margin: ${marginMs}`);
  if (now < roundTimeMs(chain, latest) - CLOCK_TOLERANCE_MS) return { refused: 'clock behind' };
  if (now > roundTimeMs(chain, latest + 1) + CLOCK_TOLERANCE_MS) return { refused: 'clock ahead' };
  const byEvidence = latest + 1 + Math.ceil(marginMs / (chain.period * 1000));
  const byClock = firstRoundAfter(chain, now + marginMs);
  return { round: Math.max(byEvidence, byClock) };
}
