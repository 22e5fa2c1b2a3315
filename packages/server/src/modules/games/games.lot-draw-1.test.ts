import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRoundAfter, roundTimeMs } from '@lot/domain/beacon';
import { commitmentOf, drawSequence } from '@lot/domain/draw';
import { FREEZE_REFUSED, SERVER_MESSAGES } from '@lot/domain/server-messages';
import { MESSAGES } from '@lot/domain/messages';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import { verifyProof } from '@lot/domain/verify';
import { type DrawBeaconMode } from '../../lib/draw-beacon.ts';
import {
  configureWinners,
  drawCall,
  expectNoEffect,
  gameAuditOf,
  openGame,
  openGameCall,
  participants,
  passRound,
  proofOf,
  putEntries,
  seedOf,
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
import { startTestBeacon, type TestBeacon } from '../../test/test-beacon.ts';

/**
 * LOT-DRAW-1 games (server randomness only), what decides a new game's protocol — DRAW_BEACON
 * `off`, `auto` and `required`, with the beacon up or down when the server starts (decision 036) —
 * and the winner settings no game can be opened with. The app plays LOT-DRAW-1 (`beacon: 'off'`)
 * on a database without global winner settings; the DRAW_BEACON cases start more servers on it.
 */

let t: TestApp;
let h: Hierarchy;
const closing: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  t = await createMoneyTestApp({ beacon: 'off' });
  h = await buildHierarchy(t);
  await configureWinners(t, h.U1.id, [
    { percent: '50', position: 1, name: 'First' },
    { percent: '30', position: 2, name: 'Second' },
    { percent: '10', position: 3, name: 'Third' },
  ]);
  for (const member of [h.U1, h.U4]) await fund(t, member.id, '1000.00');
});
afterAll(async () => {
  for (const close of closing.reverse()) await close();
  await expectBooksAndAuditSound(t);
  await t.close();
});

const get = (token: string | null, url: string) => t.request(token, { method: 'GET', url });

describe('winner settings no game can be opened with', () => {
  it('no active settings, own or global: "No winner settings configured!"', async () => {
    await expectNoEffect(t, () => openGameCall(t, h.U2.token, { startRange: 1, endRange: 20, betAmount: '10' }), 422, {
      message: MESSAGES.noWinnerSettings,
    });
  });

  it('active percentages above 100 % are refused with the total', async () => {
    await configureWinners(t, h.U3.id, [
      { percent: '70', position: 1 },
      { percent: '40.5', position: 2 },
    ]);
    await expectNoEffect(t, () => openGameCall(t, h.U3.token, { startRange: 1, endRange: 20, betAmount: '10' }), 422, {
      message: 'The active winner settings add up to more than 100% (110.50%)',
    });
  });

  it('a position twice: draw k pays position k, so there is no order to draw in; refused with the position', async () => {
    // The database holds one active prize per position since decision 035 (a unique index); the
    // game refuses such a scheme on its own too, shown here with the index dropped for a moment.
    const { db } = t.database;
    await db.execute(sql`DROP INDEX winner_configs_active_position_uq`);
    try {
      await db.execute(sql`
        INSERT INTO winner_configs (user_id, name, percent_bps, position, is_active) VALUES
          (${h.U4.id}, 'First', 3000, 1, true), (${h.U4.id}, 'Second', 2000, 2, true),
          (${h.U4.id}, 'Also second', 1000, 2, true)`);
      await expectNoEffect(
        t,
        () => openGameCall(t, h.U4.token, { startRange: 1, endRange: 20, betAmount: '10' }),
        422,
        {
          message: 'Position 2 already has a prize: fix the winner settings before opening a game',
        },
      );
    } finally {
      await db.execute(sql`DELETE FROM winner_configs WHERE user_id = ${h.U4.id}`);
      await db.execute(sql`CREATE UNIQUE INDEX winner_configs_active_position_uq ON winner_configs
        USING btree (COALESCE(user_id, 0), position) WHERE is_active`);
    }
  });
});

describe('a LOT-DRAW-1 game (DRAW_BEACON off)', () => {
  let game: Game;

  it('opens labelled LOT-DRAW-1, without a beacon; the commitment is SHA-256 of the seed', async () => {
    const opened = await openGameCall(t, h.U1.token, { startRange: 1, endRange: 30, betAmount: '5.00' });
    expectStatus(opened, 201);
    game = opened.json<Game>();
    expect(game).toMatchObject({ protocol: 'LOT-DRAW-1', beacon: null, frozenAt: null });
    expect(game.commitment).toBe(await commitmentOf(await seedOf(t, game)));
    const list = (await get(h.A1.token, '/api/games?status=open')).json<{ id: number; protocol: string }[]>();
    expect(list.find((g) => g.id === game.id)?.protocol).toBe('LOT-DRAW-1');
  });

  it('the first draw request freezes the game and draws position 1 in the same statement: 200', async () => {
    expectStatus(await putEntries(t, h.U1.token, game.id, participants([2, 4, 8, 16])), 200);
    const before = await balanceOf(t, h.U1.id);
    const response = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(response, 200);
    game = response.json<DrawResult>().game;
    expect(game).toMatchObject({ status: 'drawing', beacon: null, pool: '20.00' });
    expect(game.frozenAt).not.toBeNull();
    expect(game.draws).toHaveLength(1);
    expect(await balanceOf(t, h.U1.id)).toBe(before - 2000);
    const rows = await gameAuditOf(t, game.id);
    const frozen = rows.find((row) => row.action === 'game.frozen');
    const drawn = rows.find((row) => row.action === 'game.drawn');
    expect(frozen?.details).toMatchObject({ protocol: 'LOT-DRAW-1', entries: 4, pool: '20.00' });
    expect(frozen?.details).not.toHaveProperty('beaconRound');
    expect(drawn?.details).toMatchObject({ position: 1, number: game.draws[0]?.number });
    expect(frozen?.at).toBe(drawn?.at);
  });

  it('settles; every draw is drawAt without a beacon; the proof verifies with the default pins', async () => {
    for (const position of [2, 3]) {
      const response = await drawCall(t, h.U1.token, game.id, position);
      expectStatus(response, 200);
      game = response.json<DrawResult>().game;
    }
    expect(game.status).toBe('settled');
    const proof = await proofOf(t, game.code);
    expect(proof).toMatchObject({ algorithm: 'LOT-DRAW-1', beacon: null, serverSeed: game.serverSeed });
    expect(await drawSequence(game.serverSeed ?? '', proof.entriesDigest, game, 3)).toEqual(
      game.draws.map((d) => d.number),
    );
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
  });

  it('after a draw its shop cannot void it (403); its agent does: the draws it would have made are shown at once', async () => {
    const next = await openGame(t, h.U1, { numbers: [1, 3, 5], end: 30 });
    expectStatus(await drawCall(t, h.U1.token, next.id, 1), 200);
    await expectNoEffect(t, () => voidCall(t, h.U1.token, next.id, 'no'), 403, {
      message: SERVER_MESSAGES.operatorCannotVoidFrozen,
    });
    const response = await voidCall(t, h.A1.token, next.id, 'Customer left');
    expectStatus(response, 200);
    const voided = response.json<Game>();
    const proof = await proofOf(t, next.code);
    const all = await drawSequence(voided.serverSeed ?? '', proof.entriesDigest, voided, 3);
    expect(voided.draws.map((d) => d.number)).toEqual(all.slice(0, 1));
    expect(voided.unplayedDraws.map((d) => d.number)).toEqual(all.slice(1));
    expect(proof.voidedBy).toEqual({ role: 'agent', name: 'A*** O***' });
    expect((await verifyProof(proof)).verdict).toBe('verified');
  });
});

describe('DRAW_BEACON: which protocol a new game gets', () => {
  /** Another server on this database, started with the beacon as the environment would name it. */
  async function server(mode: DrawBeaconMode, relay: TestBeacon) {
    const app = await anotherApp(t, { beacon: { mode, urls: [relay.url], chainHash: relay.chain.chainHash } });
    closing.push(() => app.close());
    return (member: Member, options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: `Bearer ${member.token}` } });
  }
  async function relay(failing: 'none' | 'down') {
    const beacon = await startTestBeacon({ clock: t.now, period: 3 });
    closing.push(() => beacon.close());
    beacon.setFailing(failing);
    return beacon;
  }
  const openBody = { startRange: 1, endRange: 20, betAmount: '1.00' };
  let up: TestBeacon;
  let upCall: Awaited<ReturnType<typeof server>>;
  let twoGame: Game;
  let waiting: DrawWaiting;

  it('auto, the beacon down when the server starts: games open as LOT-DRAW-1 and draw at once', async () => {
    const call = await server('auto', await relay('down'));
    const opened = await call(h.U1, { method: 'POST', url: '/api/games', payload: openBody });
    expectStatus(opened, 201);
    const game = opened.json<Game>();
    expect(game).toMatchObject({ protocol: 'LOT-DRAW-1', beacon: null });
    expectStatus(await putEntries(t, h.U1.token, game.id, participants([1, 2, 3])), 200);
    const drawn = await call(h.U1, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } });
    expectStatus(drawn, 200);
    expectStatus(await voidCall(t, h.A1.token, game.id, 'cleanup'), 200);
  });

  it('required, the beacon down: opening is 503 with the message, and nothing changes', async () => {
    const call = await server('required', await relay('down'));
    await expectNoEffect(t, () => call(h.U1, { method: 'POST', url: '/api/games', payload: openBody }), 503, {
      message: SERVER_MESSAGES.beaconUnreachable,
    });
  });

  it('auto, the beacon up: LOT-DRAW-2, pinned to that beacon', async () => {
    up = await relay('none');
    upCall = await server('auto', up);
    const opened = await upCall(h.U1, { method: 'POST', url: '/api/games', payload: openBody });
    expectStatus(opened, 201);
    twoGame = opened.json<Game>();
    expect(twoGame).toMatchObject({
      protocol: 'LOT-DRAW-2',
      beacon: { chainHash: up.chain.chainHash, publicKey: up.chain.publicKey, round: null },
    });
    expectStatus(await putEntries(t, h.U1.token, twoGame.id, participants([4, 5, 6])), 200);
    const frozen = await upCall(h.U1, {
      method: 'POST',
      url: `/api/games/${twoGame.id}/draws`,
      payload: { position: 1 },
    });
    expectStatus(frozen, 202);
    waiting = frozen.json<DrawWaiting>();
  });

  it('a LOT-DRAW-2 game stays LOT-DRAW-2 on a server without the beacon: it waits for R, never draws without it', async () => {
    passRound(t, waiting);
    const response = await expectNoEffect(t, () => drawCall(t, h.U1.token, twoGame.id, 1), 202);
    expect(response.json<DrawWaiting>()).toMatchObject({
      waitingForRound: waiting.waitingForRound,
      beaconUnreachable: true,
      game: { protocol: 'LOT-DRAW-2', draws: [] },
    });
    // The server that reaches the beacon draws it, with R.
    const drawn = await upCall(h.U1, {
      method: 'POST',
      url: `/api/games/${twoGame.id}/draws`,
      payload: { position: 1 },
    });
    expectStatus(drawn, 200);
    expect(drawn.json<DrawResult>().game.beacon).toMatchObject({
      round: waiting.waitingForRound,
      signature: up.sign(waiting.waitingForRound).signature,
    });
    expectStatus(await voidCall(t, h.A1.token, twoGame.id, 'cleanup'), 200);
  });

  it('the beacon going down after the start: once a round is long overdue, required refuses new games until it answers again', async () => {
    const beacon = await relay('none');
    const call = await server('required', beacon);
    const opened = await call(h.U1, { method: 'POST', url: '/api/games', payload: openBody });
    expectStatus(opened, 201);
    const game = opened.json<Game>();
    expectStatus(await putEntries(t, h.U1.token, game.id, participants([7, 8, 9])), 200);
    const frozen = await call(h.U1, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } });
    expectStatus(frozen, 202);
    const { expectedAt } = frozen.json<DrawWaiting>();
    beacon.setFailing('down');
    // A moment late is a slow relay, not a dead beacon: games still open.
    t.advanceClock(Date.parse(expectedAt) - t.now() + 1_000);
    const late = await call(h.U1, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } });
    expect(late.json<DrawWaiting>().beaconUnreachable).toBe(true);
    // Long overdue: the beacon is down; required refuses to open another game.
    t.advanceClock(15_000);
    expectStatus(
      await call(h.U1, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } }),
      202,
    );
    expectStatus(await voidCall(t, h.A1.token, game.id, 'beacon down'), 200);
    const refused = await call(h.U1, { method: 'POST', url: '/api/games', payload: openBody });
    expectStatus(refused, 503);
    expect(refused.json()).toMatchObject({ message: SERVER_MESSAGES.beaconUnreachable });
  });

  it('a server whose clock is an hour behind the beacon does not freeze a game: 503, nothing held', async () => {
    const beacon = await relay('none');
    // This server's clock stands an hour behind the beacon's (t.now), just after a round's time: the
    // latest round its relay answers is an hour after it, far beyond the minute a freeze tolerates
    // (decision 076; games.freeze-evidence.test.ts has every phase and skew).
    const behind = roundTimeMs(beacon.chain, firstRoundAfter(beacon.chain, t.now() - 3_600_000)) + 100;
    const app = await anotherApp(t, {
      clock: () => behind,
      beacon: { mode: 'required', urls: [beacon.url], chainHash: beacon.chain.chainHash },
    });
    closing.push(() => app.close());
    const call = (options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: `Bearer ${h.U1.token}` } });
    const opened = await call({ method: 'POST', url: '/api/games', payload: openBody });
    expectStatus(opened, 201);
    const game = opened.json<Game>();
    expectStatus(await putEntries(t, h.U1.token, game.id, participants([1, 2, 3])), 200);
    await expectNoEffect(
      t,
      () => call({ method: 'POST', url: `/api/games/${game.id}/draws`, payload: { position: 1 } }),
      503,
      {
        message: FREEZE_REFUSED['clock behind'],
      },
    );
    expectStatus(await voidCall(t, h.U1.token, game.id, 'cleanup'), 200);
  });
});
