import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundTimeMs } from '@lot/domain/beacon';
import { FREEZE_MARGIN_MS, freezeRound } from '@lot/domain/freeze-round';
import { FREEZE_REFUSED } from '@lot/domain/server-messages';
import type { DrawWaiting, Game } from '@lot/domain/schemas/games';
import { verifyProof } from '@lot/domain/verify';
import type { DrawBeaconOptions } from '../../lib/draw-beacon.ts';
import {
  configureWinners,
  drawAll,
  drawCall,
  expectNoEffect,
  gameAuditOf,
  openGame,
  proofOf,
  snapshot,
  voidCall,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import {
  balanceOf,
  createMoneyTestApp,
  expectStatus,
  fund,
  expectBooksAndAuditSound,
} from '../../test/money-fixtures.ts';
import { anotherApp, type TestApp } from '../../test/test-app.ts';
import { latestRoundAt, startTestBeacon, type TestBeacon } from '../../test/test-beacon.ts';

/**
 * R from evidence, not from the clock (issue 41 item 1, decision 076): a LOT-DRAW-2 freeze names its
 * round R after the latest round L the relays answer, so a server whose clock was set back never
 * names a round already public; it refuses the freeze (503, nothing held, the game open) when no
 * relay answers L, when a relay has R already, or when its clock is more than a minute off the
 * beacon. The app's and the beacon's clock stand still but for `advanceClock`, and the app's clock
 * is skewed per request: hundreds of freezes take no real round's wait.
 */

let t: TestApp;
let h: Hierarchy;
let beacon: TestBeacon;
const closing: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  t = await createMoneyTestApp({ stoppedClock: true });
  h = await buildHierarchy(t);
  if (!t.beacon) throw new Error('the test app has no beacon');
  beacon = t.beacon;
  await configureWinners(t, null, [{ percent: '50', position: 1 }]);
  await fund(t, h.U1.id, '100000.00');
  await fund(t, h.U2.id, '1000.00');
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await expectBooksAndAuditSound(t);
  await t.close();
});

/** The round the test beacon serves as latest now: every round up to it is public. */
const publicNow = () => latestRoundAt(beacon.chain, t.now());
/** Moves the clock on: 20 steps visit every phase of the 3 s period, 157 ms apart. */
const step = () => t.advanceClock(157);

describe("freezes with the server's clock off the beacon's", () => {
  // lib/draw-beacon.test.ts names R 200 times at each skew, every 37 ms of the period; here the
  // freezes go through the whole draw request, every 157 ms of it.
  it('30 s behind: 20 freezes, each on a round not yet public, after L, with room before it', async () => {
    let publicRounds = 0;
    for (let attempt = 0; attempt < 20; attempt++) {
      step();
      const game = await openGame(t, h.U1, { numbers: [1, 2] });
      const frozen = await t.withClockSkew(-30_000, () => drawCall(t, h.U1.token, game.id, 1));

      expectStatus(frozen, 202);
      const { waitingForRound: R, game: after } = frozen.json<DrawWaiting>();
      if (R <= publicNow()) publicRounds++;
      // L is what the beacon served as latest; R is after it and at least the margin after L + 1.
      expect(after.beacon?.latestRound).toBe(publicNow());
      expect(roundTimeMs(beacon.chain, R)).toBeGreaterThanOrEqual(t.now() + FREEZE_MARGIN_MS);
      // The freeze's time is the server's (skewed) clock, as recorded: R's time is after it.
      expect(Date.parse(after.frozenAt ?? '')).toBe(t.now() - 30_000);
      expectStatus(await voidCall(t, h.A1.token, game.id, 'next attempt'), 200);
    }
    expect(publicRounds).toBe(0);
  });

  it.each([
    ['an hour behind', -3_600_000, FREEZE_REFUSED['clock behind']],
    ['three hours ahead', 10_800_000, FREEZE_REFUSED['clock ahead']],
  ])('%s: 25 attempts, each refused (503) with nothing held; the game stays open', async (_, skew, message) => {
    const game = await openGame(t, h.U1, { numbers: [3, 4] });
    const before = await snapshot(t);
    for (let attempt = 0; attempt < 25; attempt++) {
      step();
      const refused = await t.withClockSkew(skew, () => drawCall(t, h.U1.token, game.id, 1));
      expectStatus(refused, 503);
      expect(refused.json()).toMatchObject({ code: 'UNAVAILABLE', message });
    }
    expect(await snapshot(t)).toEqual(before);
    // The clock set right, the same game freezes.
    const frozen = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(frozen, 202);
    expect(frozen.json<DrawWaiting>().waitingForRound).toBeGreaterThan(publicNow());
    expectStatus(await voidCall(t, h.A1.token, game.id, 'next case'), 200);
  });

  it('a minute off either way still freezes, on a round after L and after the clock', async () => {
    for (const skew of [-59_000, 59_000]) {
      step();
      const game = await openGame(t, h.U1, { numbers: [5, 6] });
      const frozen = await t.withClockSkew(skew, () => drawCall(t, h.U1.token, game.id, 1));
      expectStatus(frozen, 202);
      const R = frozen.json<DrawWaiting>().waitingForRound;
      const named = freezeRound(beacon.chain, { latest: publicNow(), now: t.now() + skew, marginMs: FREEZE_MARGIN_MS });
      expect(named).toEqual({ round: R });
      expect(roundTimeMs(beacon.chain, R)).toBeGreaterThan(Math.max(t.now(), t.now() + skew) + FREEZE_MARGIN_MS);
      expectStatus(await voidCall(t, h.A1.token, game.id, 'next case'), 200);
    }
  });
});

describe('a freeze refused for want of evidence: 503, nothing held, the game stays open', () => {
  it.each(['down', 'garbage', 'wrong-signature'] as const)(
    'no relay answers a verified latest round (%s)',
    async (failing) => {
      step();
      const game = await openGame(t, h.U1, { numbers: [7, 8] });
      beacon.setFailing(failing);
      try {
        await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 1), 503, {
          code: 'UNAVAILABLE',
          message: FREEZE_REFUSED['no latest round'],
        });
      } finally {
        beacon.setFailing('none');
      }
      expect((await t.request(h.U1.token, { method: 'GET', url: `/api/games/${game.id}` })).json<Game>()).toMatchObject(
        { status: 'open', frozenAt: null, beacon: { round: null, latestRound: null } },
      );
      expectStatus(await drawCall(t, h.U1.token, game.id, 1), 202);
      expectStatus(await voidCall(t, h.A1.token, game.id, 'next case'), 200);
    },
  );

  /** Another server on this database, asking these relays (the test beacon's chain), on the test clock. */
  async function server(urls: string[], beaconOptions: Partial<DrawBeaconOptions> = {}) {
    const app = await anotherApp(t, {
      beacon: { mode: 'required', urls, chainHash: beacon.chain.chainHash, ...beaconOptions },
    });
    closing.push(() => app.close());
    return (member: Member, options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: `Bearer ${member.token}` } });
  }

  it('a relay already has R, though the first relay says L is the latest: 503', async () => {
    // Same key and clock as the app's beacon, so the same chain; it serves the next minute's rounds.
    const early = await startTestBeacon({ clock: t.now, period: 3 });
    closing.push(() => early.close());
    early.setFailing('early');
    const call = await server([beacon.url, early.url]);
    step();
    const game = await openGame(t, h.U2, { numbers: [1, 2] });
    await expectNoEffect(
      t,
      () => call(h.U2, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } }),
      503,
      { code: 'UNAVAILABLE', message: FREEZE_REFUSED['round public'] },
    );
    // R's signature is out, so it stays refused; the same relay answering honestly again, the game
    // freezes on the next round's evidence.
    early.setFailing('none');
    t.advanceClock(3_000);
    const frozen = await call(h.U2, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } });
    expectStatus(frozen, 202);
    expectStatus(await voidCall(t, h.A1.token, game.id, 'next case'), 200);
  });

  it('a relay that does not answer in time: 503, nothing held', async () => {
    const slow = await startTestBeacon({ clock: t.now, period: 3 });
    closing.push(() => slow.close());
    // A relay that hangs is given up on after the relays' timeout (300 ms here).
    const call = await server([slow.url], { timeoutMs: 300 });
    step();
    const game = await openGame(t, h.U2, { numbers: [3, 4] });
    slow.setFailing('hang');
    await expectNoEffect(
      t,
      () => call(h.U2, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } }),
      503,
      { code: 'UNAVAILABLE', message: FREEZE_REFUSED['no latest round'] },
    );
    slow.setFailing('none');
    expectStatus(await voidCall(t, h.U2.token, game.id, 'next case'), 200);
  });

  it('a LOT-DRAW-2 game on a server with DRAW_BEACON off: its freeze is refused, never a round it cannot fetch', async () => {
    step();
    const game = await openGame(t, h.U2, { numbers: [5, 6] });
    const off = await server([], { mode: 'off', chainHash: '' });
    await expectNoEffect(
      t,
      () => off(h.U2, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } }),
      503,
      { message: FREEZE_REFUSED['no latest round'] },
    );
    expectStatus(await drawCall(t, h.U2.token, game.id, 1), 202);
    expectStatus(await voidCall(t, h.A1.token, game.id, 'next case'), 200);
  });
});

describe('L in the record', () => {
  it('the game, its game.frozen audit row and its proof carry L; the settled proof verifies', async () => {
    step();
    const before = await balanceOf(t, h.U2.id);
    const game = await openGame(t, h.U2, { numbers: [1, 2, 3] });
    const frozen = await drawCall(t, h.U2.token, game.id, 1);
    expectStatus(frozen, 202);
    const L = publicNow();
    const { waitingForRound: R } = frozen.json<DrawWaiting>();
    expect(frozen.json<DrawWaiting>().game.beacon).toMatchObject({ round: R, latestRound: L });
    expect(await balanceOf(t, h.U2.id)).toBe(before - 3000);
    const audit = await gameAuditOf(t, game.id);
    expect(audit.find((row) => row.action === 'game.frozen')?.details).toMatchObject({
      beaconRound: R,
      latestRound: L,
    });
    const waiting = await proofOf(t, game.code);
    expect(waiting.beacon).toMatchObject({ round: R, latestRound: L, signature: null });
    const settled = await drawAll(t, h.U2, frozen.json<DrawWaiting>().game);
    expect(settled.status).toBe('settled');
    const proof = await proofOf(t, game.code);
    const pins = [{ ...beacon.chain, name: 'LOT test beacon' }];
    const report = await verifyProof(proof, pins);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'Beacon round')?.detail).toContain(`after round ${L}`);
    expect(report.verdict).toBe('verified');
  });
});
