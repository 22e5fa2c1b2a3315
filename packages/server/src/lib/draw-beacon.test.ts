import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRoundAfter, roundTimeMs } from '@lot/domain/beacon';
import type { BeaconPin } from '@lot/domain/draw';
import { CLOCK_TOLERANCE_MS, FREEZE_MARGIN_MS } from '@lot/domain/freeze-round';
import { latestRoundAt, startTestBeacon, type TestBeacon } from '../test/test-beacon.ts';
import { DrawBeacon, type FreezeEvidence } from './draw-beacon.ts';

/**
 * Round R at a freeze, from the beacon's evidence (decision 076), against the local test beacon on
 * a clock that stands still but for the test: hundreds of freezes at every phase of the period,
 * with the server's clock set back or forward, and each relay failure. games.freeze-evidence.test.ts
 * runs the same through the draw request on both databases (503, nothing held).
 */

let now = roundTimeMs({ genesisTime: 1_700_000_000, period: 3 }, 10_000_000);
const beaconClock = () => now;
const relays: TestBeacon[] = [];
const beacons: DrawBeacon[] = [];
let honest: TestBeacon;
let pin: BeaconPin;

async function relay(): Promise<TestBeacon> {
  const started = await startTestBeacon({ clock: beaconClock, period: 3 });
  relays.push(started);
  return started;
}

/** A DrawBeacon as buildApp makes it (`required`), started, asking these relays. */
async function drawBeacon(urls: string[], freezeMarginMs?: number): Promise<DrawBeacon> {
  const beacon = new DrawBeacon({
    mode: 'required',
    urls,
    chainHash: honest.chain.chainHash,
    clock: beaconClock,
    freezeMarginMs,
    timeoutMs: 300,
  });
  beacon.job().start();
  beacons.push(beacon);
  await beacon.pinForNewGame();
  return beacon;
}

beforeAll(async () => {
  honest = await relay();
  const { chainHash, publicKey, genesisTime, period } = honest.chain;
  pin = { chainHash, publicKey, genesisTime, period };
});
afterAll(async () => {
  for (const beacon of beacons) beacon.close();
  for (const started of relays) await started.close();
});

/** Whether the round is public at the beacon's time: the test relay serves it. */
const isPublic = (round: number) => round <= latestRoundAt(pin, now);

describe('freezeEvidence: R after L, whatever the server’s clock says', () => {
  it.each([
    ['30 s behind', 200, -30_000],
    ['an hour behind', 200, -3_600_000],
    ['three hours ahead', 200, 10_800_000],
    ['a second behind', 50, -1_000],
    ['59 s ahead', 50, 59_000],
  ])('%s: %i freezes, none on a public round (each on a future one, or refused)', async (_, attempts, skew) => {
    const beacon = await drawBeacon([honest.url]);
    const answers: FreezeEvidence[] = [];
    let oldRuleWasPublic = 0;
    const step = Math.floor(3_000 / attempts) + 7; // every phase of the 3 s period
    for (let attempt = 0; attempt < attempts; attempt++) {
      now += step;
      const clock = () => now + skew;
      const answer = await beacon.freezeEvidence(pin, clock);
      answers.push(answer);
      if (isPublic(firstRoundAfter(pin, clock()))) oldRuleWasPublic++;
      if (answer.kind === 'freeze') {
        expect(isPublic(answer.round), `attempt ${attempt}`).toBe(false);
        expect(answer.latest).toBe(latestRoundAt(pin, now));
        expect(roundTimeMs(pin, answer.round)).toBeGreaterThanOrEqual(now + FREEZE_MARGIN_MS);
        expect(roundTimeMs(pin, answer.round)).toBeGreaterThan(clock() + FREEZE_MARGIN_MS);
      }
    }
    const refused = answers.filter((a) => a.kind === 'no freeze');
    if (Math.abs(skew) > CLOCK_TOLERANCE_MS) {
      expect(refused).toHaveLength(attempts);
      expect(new Set(refused.map((a) => a.kind === 'no freeze' && a.reason))).toEqual(
        new Set([skew < 0 ? 'clock behind' : 'clock ahead']),
      );
    } else {
      expect(refused).toEqual([]);
    }
    // The clock's own round, as the freeze took it before: public in every attempt once set back.
    if (skew <= -3_000) expect(oldRuleWasPublic).toBe(attempts);
  });

  it('no relay with a verified latest round: refused, whatever the failure', async () => {
    const failing = await relay();
    const beacon = await drawBeacon([failing.url]);
    for (const mode of ['down', 'garbage', 'wrong-signature'] as const) {
      failing.setFailing(mode);
      expect(await beacon.freezeEvidence(pin, beaconClock)).toEqual({ kind: 'no freeze', reason: 'no latest round' });
    }
    failing.setFailing('none');
    expect(await beacon.freezeEvidence(pin, beaconClock)).toMatchObject({ kind: 'freeze' });
  });

  it('a relay that hangs is given up on; with one that answers, the freeze stands after a quarter of the margin more', async () => {
    const hanging = await relay();
    const alone = await drawBeacon([hanging.url], 1_000);
    const withHonest = await drawBeacon([hanging.url, honest.url], 1_000);
    hanging.setFailing('hang');
    const started = performance.now();
    expect(await alone.freezeEvidence(pin, beaconClock)).toEqual({ kind: 'no freeze', reason: 'no latest round' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await withHonest.freezeEvidence(pin, beaconClock)).toMatchObject({
      kind: 'freeze',
      latest: latestRoundAt(pin, now),
    });
    hanging.setFailing('none');
  });

  it('L is the highest verified latest round of all relays; one that lies about its latest is passed over', async () => {
    const lying = await relay();
    lying.setFailing('wrong-signature');
    const beacon = await drawBeacon([lying.url, honest.url]);
    const answer = await beacon.freezeEvidence(pin, beaconClock);
    expect(answer).toMatchObject({ kind: 'freeze', latest: latestRoundAt(pin, now) });
  });

  it('any relay that has R already refuses the freeze', async () => {
    const early = await relay();
    early.setFailing('early');
    const beacon = await drawBeacon([honest.url, early.url]);
    now += 3_000;
    expect(await beacon.freezeEvidence(pin, beaconClock)).toEqual({ kind: 'no freeze', reason: 'round public' });
  });

  it('a burst of freezes asks the relays once for L and once for R', async () => {
    const counted = await relay();
    const beacon = await drawBeacon([counted.url]);
    await beacon.freezeEvidence(pin, beaconClock); // after the start-up check and its first heartbeat
    now += 3_000;
    const before = counted.requests;
    const answers = await Promise.all(Array.from({ length: 20 }, () => beacon.freezeEvidence(pin, beaconClock)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ kind: 'freeze' });
    // One /public/latest, one /{chainHash}/public/R (425: not yet), nothing more.
    expect(counted.requests - before).toBe(2);
  });

  it('a game pinned to another chain than the one this server reaches: refused', async () => {
    const beacon = await drawBeacon([honest.url]);
    const other = { ...pin, chainHash: 'f'.repeat(64) };
    expect(await beacon.freezeEvidence(other, beaconClock)).toEqual({ kind: 'no freeze', reason: 'no latest round' });
  });
});
