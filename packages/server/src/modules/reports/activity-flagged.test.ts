import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Game } from '@lot/domain/schemas/games';
import type { Activity } from '@lot/domain/schemas/reports';
import { configureWinners, drawAll, drawPosition, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { expectStatus, fund } from '../../test/money-fixtures.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The activity report's flagged games (docs/product/reports.md#activity), which the upline's
 * dashboards show beside the voided ones: games voided after their freeze, and LOT-DRAW-1 games
 * (server randomness only) neither voided nor discarded, each counted once, in the caller's scope
 * and the period only.
 */

/** Without `voidedAfterWinner`: whether these games' first draws named a winner is chance (void-after-winner.test.ts counts it). */
async function flagged(
  t: TestApp,
  member: Member,
  query = 'days=30',
): Promise<Omit<Activity['flaggedGames'], 'voidedAfterWinner'>> {
  const response = await t.request(member.token, { method: 'GET', url: `/api/reports/activity?${query}` });
  expectStatus(response, 200);
  const { voidedAfterWinner: _chance, ...rest } = response.json<Activity>().flaggedGames;
  return rest;
}

/** A game of `member` frozen by its first draw (LOT-DRAW-2: the round is then waited for, nothing drawn). */
async function frozen(t: TestApp, member: Member): Promise<Game> {
  const game = await openGame(t, member, { numbers: [1, 2, 3] });
  const response = await drawPosition(t, member.token, game.id, 1);
  expectStatus(response, 200);
  return game;
}

async function settle(t: TestApp, member: Member): Promise<Game> {
  return drawAll(t, member, await openGame(t, member, { numbers: [4, 5, 6] }));
}

async function voidAs(t: TestApp, by: Member, game: Game) {
  expectStatus(await voidCall(t, by.token, game.id, 'Flagged test'), 200);
}

async function setUp(beacon: 'off' | 'required') {
  const t = await createTestApp({ beacon });
  const h = await buildHierarchy(t);
  // Two positions: a frozen game's first draw leaves it drawing (LOT-DRAW-1 draws position 1 at the freeze).
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '20', position: 2 },
  ]);
  for (const member of [h.U1, h.U2, h.U5]) await fund(t, member.id, '1000.00');
  return { t, h };
}

describe('flagged games, LOT-DRAW-1 (server randomness only)', () => {
  let t: TestApp;
  let h: Hierarchy;
  beforeAll(async () => {
    ({ t, h } = await setUp('off'));
    // Under agent A1: two settled, one in progress, one voided after its freeze, one discarded.
    await settle(t, h.U1);
    await settle(t, h.U1);
    await voidAs(t, h.A1, await frozen(t, h.U2));
    await frozen(t, h.U2);
    const discarded = await openGame(t, h.U1, { numbers: [7] });
    expectStatus(await voidCall(t, h.U1.token, discarded.id, 'Changed my mind'), 200);
    // Another super agent's branch: one settled game.
    await settle(t, h.U5);
  }, 60_000);
  afterAll(() => t?.close());

  it('counts every LOT-DRAW-1 game that was not voided or discarded, and the voided ones once, as voided', async () => {
    expect(await flagged(t, h.A1)).toEqual({ voided: 1, serverRandomness: 3 });
  });

  it('keeps to the scope: other branches, the super agents above, the admin everyone', async () => {
    expect(await flagged(t, h.A2)).toEqual({ voided: 0, serverRandomness: 0 });
    expect(await flagged(t, h.A3)).toEqual({ voided: 0, serverRandomness: 1 });
    expect(await flagged(t, h.S1)).toEqual({ voided: 1, serverRandomness: 3 });
    expect(await flagged(t, h.S2)).toEqual({ voided: 0, serverRandomness: 1 });
    expect(await flagged(t, h.admin)).toEqual({ voided: 1, serverRandomness: 4 });
    expect(await flagged(t, h.U2)).toEqual({ voided: 1, serverRandomness: 1 });
  });

  it('counts the games opened in the period only', async () => {
    await t.database.db.execute(
      sql`UPDATE game_rounds SET created_at = now() - interval '40 days' WHERE user_id = ${h.U1.id}`,
    );
    expect(await flagged(t, h.A1)).toEqual({ voided: 1, serverRandomness: 1 });
    expect(await flagged(t, h.A1, 'days=60')).toEqual({ voided: 1, serverRandomness: 3 });
  });
});

describe('flagged games, LOT-DRAW-2 (public randomness)', () => {
  let t: TestApp;
  let h: Hierarchy;
  let inProgress: Game;
  beforeAll(async () => {
    ({ t, h } = await setUp('required'));
    await settle(t, h.U1);
    inProgress = await frozen(t, h.U2);
  }, 60_000);
  afterAll(() => t?.close());

  it('does not count a settled or frozen LOT-DRAW-2 game; a voided one counts as voided', async () => {
    expect(inProgress.protocol).toBe('LOT-DRAW-2');
    expect(await flagged(t, h.A1)).toEqual({ voided: 0, serverRandomness: 0 });
    await voidAs(t, h.A1, inProgress);
    expect(await flagged(t, h.A1)).toEqual({ voided: 1, serverRandomness: 0 });
  });
});
