import { describe, expect, it } from 'vitest';
import { QUICKNET, roundTimeMs } from './beacon.ts';
import { CLOCK_TOLERANCE_MS, FREEZE_MARGIN_MS, freezeRound } from './freeze-round.ts';

const time = (round: number) => roundTimeMs(QUICKNET, round);
/** The round a relay answers as latest at beacon time `t`: the last whose time has come. */
const latestAt = (t: number) => Math.floor((t - time(1)) / 3000) + 1;
/** A small deterministic generator, so that a failure names its case. */
function* times(count: number, seed = 7): Generator<number> {
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield time(4_810_403) + (x % 3_600_000) + (i % 1000) / 1000;
  }
}

describe('freezeRound (decision 076)', () => {
  it('the worked example: L = 4810401, the clock at 15:49:29.800, the default margin → R = 4810403', () => {
    const now = Date.parse('2024-02-06T15:49:29.800Z');
    expect(freezeRound(QUICKNET, { latest: 4_810_401, now, marginMs: FREEZE_MARGIN_MS })).toEqual({
      round: 4_810_403,
    });
  });

  it('R is strictly after L and at least the margin after the clock and after roundTime(L + 1)', () => {
    for (const t of times(500)) {
      for (const marginMs of [1000, 2000, 3000, 4500, 60_000]) {
        const latest = latestAt(t);
        const answer = freezeRound(QUICKNET, { latest, now: t, marginMs });
        if (!('round' in answer)) throw new Error(`refused at ${t}`);
        const R = answer.round;
        expect(R).toBeGreaterThan(latest);
        expect(time(R)).toBeGreaterThan(t + marginMs);
        expect(time(R)).toBeGreaterThanOrEqual(time(latest + 1) + marginMs);
        // And no earlier round would do: R − 1 fails one of the two.
        expect(time(R - 1) <= t + marginMs || time(R - 1) < time(latest + 1) + marginMs).toBe(true);
      }
    }
  });

  it('a clock set back never names a public round: R is after the beacon time by the margin, or refused', () => {
    // The hole of issue 41: at −30 s the clock's round was out 30 s ago. Every phase of the period.
    for (const skew of [-30_000, -1_000, -999, -1, -59_999, -3_600_000, 10_800_000, 59_000]) {
      for (const t of times(600, -skew)) {
        const answer = freezeRound(QUICKNET, { latest: latestAt(t), now: t + skew, marginMs: FREEZE_MARGIN_MS });
        if ('round' in answer) {
          expect(answer.round).toBeGreaterThan(latestAt(t));
          expect(time(answer.round)).toBeGreaterThanOrEqual(t + FREEZE_MARGIN_MS);
        } else {
          expect(Math.abs(skew)).toBeGreaterThan(CLOCK_TOLERANCE_MS - 3000);
        }
      }
    }
  });

  it('refuses a clock more than a minute behind roundTime(L) or ahead of roundTime(L + 1)', () => {
    const L = 4_810_401;
    const input = (now: number) => ({ latest: L, now, marginMs: FREEZE_MARGIN_MS });
    expect(freezeRound(QUICKNET, input(time(L) - CLOCK_TOLERANCE_MS))).toHaveProperty('round');
    expect(freezeRound(QUICKNET, input(time(L) - CLOCK_TOLERANCE_MS - 1))).toEqual({ refused: 'clock behind' });
    expect(freezeRound(QUICKNET, input(time(L) - 3_600_000))).toEqual({ refused: 'clock behind' });
    expect(freezeRound(QUICKNET, input(time(L + 1) + CLOCK_TOLERANCE_MS))).toHaveProperty('round');
    expect(freezeRound(QUICKNET, input(time(L + 1) + CLOCK_TOLERANCE_MS + 1))).toEqual({ refused: 'clock ahead' });
    expect(freezeRound(QUICKNET, input(time(L) + 10_800_000))).toEqual({ refused: 'clock ahead' });
  });

  it('a clock ahead within the tolerance decides R; one behind leaves it to L', () => {
    const L = 4_810_401;
    // 30 s ahead: the first round more than 2 s after the clock.
    expect(freezeRound(QUICKNET, { latest: L, now: time(L) + 30_000, marginMs: 2000 })).toEqual({ round: L + 11 });
    // 30 s behind: L + 1 + ceil(2000 / 3000).
    expect(freezeRound(QUICKNET, { latest: L, now: time(L) - 30_000, marginMs: 2000 })).toEqual({ round: L + 2 });
    // A margin of whole periods: L + 1 + 2.
    expect(freezeRound(QUICKNET, { latest: L, now: time(L), marginMs: 6000 })).toEqual({ round: L + 3 });
  });

  it('refuses what is not a round, a time or a margin', () => {
    for (const latest of [0, -1, 1.5, Number.NaN]) {
      expect(() => freezeRound(QUICKNET, { latest, now: time(2), marginMs: 2000 })).toThrow(RangeError);
    }
    expect(() => freezeRound(QUICKNET, { latest: 2, now: Number.NaN, marginMs: 2000 })).toThrow(RangeError);
    expect(() => freezeRound(QUICKNET, { latest: 2, now: time(2), marginMs: -1 })).toThrow(RangeError);
  });
});
