import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSequence } from '@lot/domain/draw';
import { MESSAGES } from '@lot/domain/messages';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import type { DrawResult, Game, GameProof, GameSummary } from '@lot/domain/schemas/games';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { verifyProof } from '@lot/domain/verify';
import { queryRows } from '../../db/client.ts';
import { checkLedger } from '../balance/ledger.ts';
import { drawStatement } from './games.repository.ts';
import {
  configureWinners,
  drawAll,
  drawCall,
  expectNoEffect,
  openGame,
  openGameCall,
  participants,
  postGame,
  putEntries,
  salePayload,
  snapshot,
  voidCall,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, PASSWORD, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { balanceOf, createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * The server-run game (decision 013): opened, filled, drawn with LOT-DRAW-1 one position at a
 * time, the pool held at the first draw and settled at the last, voids kept on record, and the
 * public proof. Every refusal changes nothing.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  // U1 plays with its own 50 / 30 / 10 %, everyone else with the global 60 / 40 %.
  await configureWinners(t, h.U1.id, [
    { percent: '10', position: 3, name: 'Third' },
    { percent: '50', position: 1, name: 'First' },
    { percent: '30', position: 2, name: 'Second' },
  ]);
  await configureWinners(t, null, [
    { percent: '60', position: 1 },
    { percent: '40', position: 2 },
    { percent: '25', position: 3, isActive: false },
  ]);
  for (const member of [h.U1, h.U2, h.U3, h.U4, h.U5]) await fund(t, member.id, '1000.00');
});
afterAll(async () => {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  await t.close();
});

const get = (token: string | null, url: string) => t.request(token, { method: 'GET', url });

async function ledgerRow(id: number | null) {
  const [row] = await queryRows<{ type: string; amount: string; status: string; description: string }>(
    t.database.db,
    sql`SELECT type, amount::text AS amount, status, description FROM transactions WHERE id = ${id}`,
  );
  return row;
}

/** Ends whatever game the member has in progress, so a test starts clean. */
async function endCurrent(member: Member) {
  const current = await get(member.token, '/api/games/current');
  if (current.statusCode === 200)
    expectStatus(await voidCall(t, member.token, current.json<Game>().id, 'cleanup'), 200);
}

describe('opening a game', () => {
  it('201: the game with its id, an unguessable code, the commitment and the prizes sorted by position', async () => {
    const response = await openGameCall(t, h.U1.token, { startRange: 1, endRange: 20, betAmount: '10.00' });
    expectStatus(response, 201);
    const game = response.json<Game>();
    expect(game).toMatchObject({
      status: 'open',
      userId: h.U1.id,
      startRange: 1,
      endRange: 20,
      betAmount: '10.00',
      pool: '0.00',
      entries: [],
      draws: [],
      serverSeed: null,
      saleId: null,
      transactionId: null,
    });
    // 16 random bytes, base64url: 128 bits, URL-safe.
    expect(game.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(game.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(game.prizes.map((p) => [p.position, p.percentBps, p.name])).toEqual([
      [1, 5000, 'First'],
      [2, 3000, 'Second'],
      [3, 1000, 'Third'],
    ]);
  });

  it('a second game while one is in progress is 409 and changes nothing', async () => {
    await expectNoEffect(
      t,
      () => openGameCall(t, h.U1.token, { startRange: 1, endRange: 20, betAmount: '10.00' }),
      409,
      { message: 'You already have a game in progress' },
    );
  });

  it('every code is different', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      await endCurrent(h.U2);
      const response = await openGameCall(t, h.U2.token, { startRange: 1, endRange: 20, betAmount: '1.00' });
      expectStatus(response, 201);
      codes.add(response.json<Game>().code);
    }
    expect(codes.size).toBe(5);
    await endCurrent(h.U2);
  });

  it('bad ranges and bets are 400 with the play screen’s messages', async () => {
    for (const [body, field, message] of [
      [{ startRange: 0, endRange: 20, betAmount: '10' }, 'startRange', MESSAGES.rangeStartInvalid],
      [{ startRange: 5, endRange: 5, betAmount: '10' }, 'endRange', MESSAGES.rangeEndInvalid],
      [{ startRange: 1, endRange: 101, betAmount: '10' }, 'endRange', MESSAGES.rangeEndInvalid],
      [{ startRange: 1, endRange: 20, betAmount: '0.99' }, 'betAmount', MESSAGES.betInvalid],
      [{ startRange: 1, endRange: 20, betAmount: '1.001' }, 'betAmount', MESSAGES.betDecimals],
    ] as const) {
      const response = await expectNoEffect(t, () => openGameCall(t, h.U3.token, body), 400);
      expect(response.json().fieldErrors?.[field]).toBe(message);
    }
  });

  it('a range with fewer numbers than prizes is refused (three prizes need three numbers)', async () => {
    const response = await expectNoEffect(
      t,
      () => openGameCall(t, h.U1.token, { startRange: 1, endRange: 2, betAmount: '1' }),
      400,
    );
    expect(response.json().fieldErrors).toEqual({ endRange: 'The range needs at least 3 numbers to draw 3 prizes' });
  });

  it('admin, superagent and agent may not play: 403', async () => {
    for (const member of [h.admin, h.S1, h.A1]) {
      await expectNoEffect(
        t,
        () => openGameCall(t, member.token, { startRange: 1, endRange: 20, betAmount: '10' }),
        403,
      );
    }
  });
});

describe('winner settings the game cannot pay', () => {
  let t2: TestApp;
  let h2: Hierarchy;
  beforeAll(async () => {
    t2 = await createMoneyTestApp();
    h2 = await buildHierarchy(t2);
  });
  afterAll(() => t2.close());

  it('no active settings, own or global: "No winner settings configured!"', async () => {
    const response = await openGameCall(t2, h2.U1.token, { startRange: 1, endRange: 20, betAmount: '10' });
    expectStatus(response, 422);
    expect(response.json().message).toBe(MESSAGES.noWinnerSettings);
  });

  it('active percentages above 100 % are refused with the total', async () => {
    await configureWinners(t2, h2.U1.id, [
      { percent: '70', position: 1 },
      { percent: '40.5', position: 2 },
    ]);
    const response = await openGameCall(t2, h2.U1.token, { startRange: 1, endRange: 20, betAmount: '10' });
    expectStatus(response, 422);
    expect(response.json().message).toBe('The active winner settings add up to more than 100% (110.50%)');
  });
});

describe('a whole game', () => {
  let game: Game;
  const entries = [
    { number: 3, name: 'Ana Lopez', phoneNumber: '555 0101 234' },
    { number: 7, name: 'Ben Okafor', phoneNumber: '+1-555-0102' },
    { number: 9, name: 'Carla Diaz', phoneNumber: '5550103' },
    { number: 12, name: 'Dev Patel', phoneNumber: '5550104' },
  ];

  it('entries replace the participants while nothing is drawn, in the order given', async () => {
    const current = await get(h.U1.token, '/api/games/current');
    expectStatus(current, 200);
    game = current.json<Game>();
    expectStatus(await putEntries(t, h.U1.token, game.id, entries.slice(0, 2)), 200);
    const response = await putEntries(t, h.U1.token, game.id, [entries[2], entries[0], entries[1], entries[3]]);
    expectStatus(response, 200);
    game = response.json<Game>();
    expect(game.entries.map((e) => e.number)).toEqual([9, 3, 7, 12]);
    expect(game.pool).toBe('40.00');
  });

  it('entries out of the range, repeated, or without a name or phone are 400 and change nothing', async () => {
    for (const bad of [
      [{ number: 21, name: 'X', phoneNumber: '5550001' }],
      [{ number: 0, name: 'X', phoneNumber: '5550001' }],
      [
        { number: 4, name: 'X', phoneNumber: '5550001' },
        { number: 4, name: 'Y', phoneNumber: '5550002' },
      ],
      [{ number: 4, name: ' ', phoneNumber: '5550001' }],
      [{ number: 4, name: 'X', phoneNumber: '555-01' }],
      [{ number: 4, name: 'X', phoneNumber: '555 0101 ext 2' }],
      [{ number: 4, name: 'X', phoneNumber: '' }],
      [{ number: 4, name: 'X' }],
    ]) {
      await expectNoEffect(t, () => putEntries(t, h.U1.token, game.id, bad), 400);
    }
  });

  it('positions are drawn in order: a later one first is 409 and changes nothing', async () => {
    await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 2), 409);
    await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 0), 400);
  });

  it('no request can choose a number: a draw carries only the position', async () => {
    for (const body of [
      { position: 1, number: 7 },
      { position: 1, winningNumbers: [7] },
      { position: 1, seed: '00' },
    ]) {
      await expectNoEffect(
        t,
        () => t.request(h.U1.token, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: body }),
        400,
      );
    }
  });

  it('the first draw holds the pool as a pending ledger row and locks the entries', async () => {
    const before = await balanceOf(t, h.U1.id);
    const response = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(response, 200);
    const result = response.json<DrawResult>();
    game = result.game;
    expect(result.position).toBe(1);
    expect(game.status).toBe('drawing');
    expect(await balanceOf(t, h.U1.id)).toBe(before - 4000);
    expect(await ledgerRow(game.transactionId)).toEqual({
      type: 'game',
      amount: '4000',
      status: 'pending',
      description: 'Game in progress with 4 numbers',
    });
    const winner = entries.find((e) => e.number === result.number) ?? null;
    expect(result.winner).toEqual(winner);
    expect(result.prizeAmount).toBe(winner ? '20.00' : '0.00');
    expect((await checkLedger(t.database.db)).ok).toBe(true);
    await expectNoEffect(t, () => putEntries(t, h.U1.token, game.id, entries), 409);
  });

  it('a repeated request for a drawn position answers the same draw and draws nothing', async () => {
    const again = await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 1), 200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<DrawResult>().number).toBe(game.draws[0]?.number);
  });

  it('the game continues on another device: a new sign-in finds it and draws the next position', async () => {
    const otherDevice = await t.login(h.U1.username, PASSWORD);
    const current = await get(otherDevice, '/api/games/current');
    expectStatus(current, 200);
    expect(current.json<Game>()).toEqual(game);
    const response = await drawCall(t, otherDevice, game.id, 2);
    expectStatus(response, 200);
    game = response.json<DrawResult>().game;
    expect(game.draws).toHaveLength(2);
  });

  it('the proof before the end: the commitment, masked entries, no seed, pending', async () => {
    const response = await get(null, `/api/verify/${game.code}`);
    expectStatus(response, 200);
    const proof = response.json<GameProof>();
    expect(proof.serverSeed).toBeNull();
    expect(proof.commitment).toBe(game.commitment);
    expect(proof.shopName).toBe(h.U1.fullName);
    expect(proof.entries.map((e) => [e.number, e.name, e.phoneNumber])).toEqual([
      [3, 'A** L****', '****1234'],
      [7, 'B** O*****', '****0102'],
      [9, 'C**** D***', '****0103'],
      [12, 'D** P****', '****0104'],
    ]);
    expect(response.body).not.toContain('Ana Lopez');
    expect(response.body).not.toContain('555 0101 234');
    expect((await verifyProof(proof)).verdict).toBe('pending');
  });

  it('the last draw settles the game in the same transaction: the record, its winners, the row completed', async () => {
    const response = await drawCall(t, h.U1.token, game.id, 3);
    expectStatus(response, 200);
    game = response.json<DrawResult>().game;
    expect(game.status).toBe('settled');
    expect(game.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    const drawn = game.draws.map((d) => d.number);
    expect(new Set(drawn).size).toBe(3);
    // Recomputed here with LOT-DRAW-1 from the revealed seed and the proof's digest.
    const proof = (await get(null, `/api/verify/${game.code}`)).json<GameProof>();
    expect(await drawSequence(game.serverSeed ?? '', proof.entriesDigest, game, 3)).toEqual(drawn);
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');

    const sale = (await get(h.U1.token, `/api/sales-history/${game.saleId}`)).json<SaleDetail>();
    const winners = sale.winners.length;
    expect(sale.gameData.winningNumbers).toEqual(drawn);
    expect(sale.totalPrize).toBe(game.totalPrize);
    expect(sale.commission).toBe(game.commission);
    expect(sale.transactionId).toBe(game.transactionId);
    expect(await ledgerRow(game.transactionId)).toEqual({
      type: 'game',
      amount: '4000',
      status: 'completed',
      description: `Game played with 4 numbers, ${winners} winners`,
    });
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('after the end nothing more is drawn, entered or voided', async () => {
    await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 4), 409, { message: MESSAGES.allWinnersDrawn });
    await expectNoEffect(t, () => putEntries(t, h.U1.token, game.id, entries), 409);
    await expectNoEffect(t, () => voidCall(t, h.U1.token, game.id, 'too late'), 409);
    expectStatus(await get(h.U1.token, '/api/games/current'), 404);
  });

  it('the game row in Transactions carries its description and code', async () => {
    const rows = (await get(h.U1.token, '/api/transactions?type=game')).json<MoneyResult['transaction'][]>();
    expect(rows.find((r) => r.id === game.transactionId)).toMatchObject({
      status: 'completed',
      gameCode: game.code,
      description: expect.stringMatching(/^Game played with 4 numbers, \d winners$/),
    });
  });

  it('the player and their upline read the game; others get 404', async () => {
    for (const member of [h.U1, h.A1, h.S1, h.admin])
      expectStatus(await get(member.token, `/api/games/${game.id}`), 200);
    for (const member of [h.U2, h.A2, h.A3, h.S2]) expectStatus(await get(member.token, `/api/games/${game.id}`), 404);
    expectStatus(await get(null, `/api/games/${game.id}`), 401);
    expectStatus(await get(null, '/api/verify/not-a-real-code'), 404);
  });
});

describe('the pool, the balance and concurrency', () => {
  it('a pool the balance does not cover: "Insufficient balance", nothing drawn, nothing held', async () => {
    await endCurrent(h.U3);
    const game = await openGame(t, h.U3, { numbers: [1, 2, 3], bet: '400.00' });
    const response = await expectNoEffect(t, () => drawCall(t, h.U3.token, game.id, 1), 422, {
      message: MESSAGES.insufficientBalance,
    });
    expect(response.json().fieldErrors).toEqual({ betAmount: MESSAGES.insufficientBalance });
    expectStatus(await voidCall(t, h.U3.token, game.id, 'too expensive'), 200);
  });

  it('a game with nobody in it cannot be drawn: "No numbers have been selected yet!"', async () => {
    const opened = await openGameCall(t, h.U3.token, { startRange: 1, endRange: 20, betAmount: '1' });
    expectStatus(opened, 201);
    await expectNoEffect(t, () => drawCall(t, h.U3.token, opened.json<Game>().id, 1), 422, {
      message: MESSAGES.noNumbersSelected,
    });
    expectStatus(await voidCall(t, h.U3.token, opened.json<Game>().id, 'nobody came'), 200);
  });

  it('eight concurrent requests for the same position draw it once and all answer the same number', async () => {
    const game = await openGame(t, h.U3, { numbers: [1, 2, 3, 4, 5] });
    // No settings of its own: the active global ones, the inactive third left out.
    expect(game.prizes.map((p) => p.percentBps)).toEqual([6000, 4000]);
    const before = await balanceOf(t, h.U3.id);
    const answers = await Promise.all(Array.from({ length: 8 }, () => drawCall(t, h.U3.token, game.id, 1)));
    for (const answer of answers) expectStatus(answer, 200);
    expect(new Set(answers.map((a) => a.json<DrawResult>().number)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await balanceOf(t, h.U3.id)).toBe(before - 5000);
    const current = (await get(h.U3.token, '/api/games/current')).json<Game>();
    expect(current.draws).toHaveLength(1);
    const [held] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM transactions WHERE user_id = ${h.U3.id} AND status = 'pending'`,
    );
    expect(Number(held?.n)).toBe(1);
    // The last position (the global scheme has two), four times at once: settled exactly once.
    const last = await Promise.all(Array.from({ length: 4 }, () => drawCall(t, h.U3.token, game.id, 2)));
    expect(new Set(last.map((a) => a.statusCode))).toEqual(new Set([200]));
    expect(new Set(last.map((a) => a.json<DrawResult>().number)).size).toBe(1);
    const settled = last[0]?.json<DrawResult>().game;
    expect(settled?.status).toBe('settled');
    const [games] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM games WHERE transaction_id = ${settled?.transactionId ?? 0}`,
    );
    expect(Number(games?.n)).toBe(1);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('a draw and a void sent together: one of them wins whole, and the money matches the outcome', async () => {
    for (let round = 0; round < 6; round++) {
      const game = await openGame(t, h.U4, { numbers: [1, 2, 3] });
      expectStatus(await drawCall(t, h.U4.token, game.id, 1), 200);
      const before = await balanceOf(t, h.U4.id);
      const [drawn, voided] = await Promise.all([
        drawCall(t, h.U4.token, game.id, 2),
        voidCall(t, h.U4.token, game.id, 'race'),
      ]);
      const final = (await get(h.U4.token, `/api/games/${game.id}`)).json<Game>();
      if (final.status === 'settled') {
        expectStatus(drawn, 200);
        expectStatus(voided, 409);
        expect(await balanceOf(t, h.U4.id)).toBe(before);
      } else {
        expect(final.status).toBe('voided');
        expectStatus(voided, 200);
        expectStatus(drawn, 409);
        expect(await balanceOf(t, h.U4.id)).toBe(before + 3000);
      }
    }
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('a draw decided on a game that moved since it was read writes nothing', async () => {
    const game = await openGame(t, h.U5, { numbers: [4, 5, 6] });
    const [read] = await queryRows<{ entries: unknown; user_id: number }>(
      t.database.db,
      sql`SELECT entries, user_id FROM game_rounds WHERE id = ${game.id}`,
    );
    // The participants change after the draw read them: its digest would fix the old ones.
    expectStatus(await putEntries(t, h.U5.token, game.id, participants([4, 5, 6, 7])), 200);
    const before = await snapshot(t);
    const stale = {
      read: { id: game.id, status: 'open' as const, drawn: 0, entries: read?.entries },
      userId: h.U5.id,
      actorId: h.U5.id,
      pool: 3000,
      transactionId: null,
      draws: [{ number: 4, drawnAt: new Date().toISOString() }],
      digest: 'stale',
      holdDescription: 'Game in progress with 3 numbers',
      audit: { address: null, rows: [] },
    };
    const [row] = await queryRows<{ locked: boolean; drawn: boolean }>(t.database.db, drawStatement(stale));
    expect(row).toEqual({ locked: false, drawn: false });
    // The same with a draw count that moved on.
    const [late] = await queryRows<{ locked: boolean; drawn: boolean }>(
      t.database.db,
      drawStatement({ ...stale, read: { ...stale.read, entries: participants([4, 5, 6, 7]), drawn: 1 } }),
    );
    expect(late).toEqual({ locked: false, drawn: false });
    expect(await snapshot(t)).toEqual(before);
    // Through the API the draw reads again and fixes the four participants.
    const first = await drawCall(t, h.U5.token, game.id, 1);
    expectStatus(first, 200);
    expect(first.json<DrawResult>().game.pool).toBe('40.00');
    expectStatus(await voidCall(t, h.U5.token, game.id, 'cleanup'), 200);
  });

  it('every number of a range is drawn exactly once when the prizes cover it', async () => {
    const t3 = await createMoneyTestApp();
    try {
      const h3 = await buildHierarchy(t3);
      const settings = Array.from({ length: 10 }, (_, i) => ({ percent: '10', position: i + 1 }));
      await configureWinners(t3, h3.U1.id, settings);
      await fund(t3, h3.U1.id, '100.00');
      const game = await openGame(t3, h3.U1, { numbers: [41, 45, 50], start: 41, end: 50, bet: '1' });
      const settled = await drawAll(t3, h3.U1, game);
      expect([...settled.draws.map((d) => d.number)].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 10 }, (_, i) => 41 + i),
      );
      // Three participants, each wins 10 % of 3.00: 0.90 paid, 2.10 commission.
      expect(settled.totalPrize).toBe('0.90');
      expect(settled.commission).toBe('2.10');
      expect((await checkLedger(t3.database.db)).ok).toBe(true);
    } finally {
      await t3.close();
    }
  });
});

describe('an announced game always settles', () => {
  it('winner settings changed between draws: the game pays what it opened with', async () => {
    await endCurrent(h.U4);
    const game = await openGame(t, h.U4, { numbers: participants([1, 2, 3]) });
    expectStatus(await drawCall(t, h.U4.token, game.id, 1), 200);
    // The admin rewrites the global scheme mid-game: 3 positions now, other percentages.
    const ids = await configureWinners(t, null, [{ percent: '5', position: 3 }]);
    const settled = await drawAll(t, h.U4, game);
    expect(settled.status).toBe('settled');
    expect(settled.prizes.map((p) => p.percentBps)).toEqual([6000, 4000]);
    expect(settled.draws).toHaveLength(2);
    for (const id of ids)
      expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/winners/${id}` }), 200);
  });

  it('the balance transferred away after the first draw: the pool was held, the game settles', async () => {
    const game = await openGame(t, h.U4, { numbers: [4, 5, 6], bet: '5.00' });
    expectStatus(await drawCall(t, h.U4.token, game.id, 1), 200);
    const rest = ((await balanceOf(t, h.U4.id)) / 100).toFixed(2);
    expectStatus(await money(t, h.U4.token, 'transfer', { receiverId: h.U1.id, amount: rest }), 200);
    expect(await balanceOf(t, h.U4.id)).toBe(0);
    const settled = await drawAll(t, h.U4, game);
    expect(settled.status).toBe('settled');
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});

describe('void', () => {
  it('before the first draw the game is discarded: nothing was held, nothing changes hands', async () => {
    await fund(t, h.U5.id, '0.01');
    const game = await openGame(t, h.U5, { numbers: [1, 2] });
    const before = await snapshot(t);
    const response = await voidCall(t, h.U5.token, game.id, 'Reset before the first draw');
    expectStatus(response, 200);
    expect(response.json<Game>()).toMatchObject({ status: 'discarded', voidReason: 'Reset before the first draw' });
    const after = await snapshot(t);
    expect({ ...after, rounds: '' }).toEqual({ ...before, rounds: '' });
  });

  it('a reason is required', async () => {
    const game = await openGame(t, h.U5, { numbers: [1, 2] });
    for (const reason of [undefined, '', '   ', 5]) {
      const response = await expectNoEffect(t, () => voidCall(t, h.U5.token, game.id, reason), 400);
      if (reason !== 5) expect(response.json().message).toBe('A reason is required');
    }
    expectStatus(await voidCall(t, h.U5.token, game.id, 'cleanup'), 200);
  });

  it('after a draw the game is voided: the pool comes back, the game stays on record for the upline', async () => {
    const game = await openGame(t, h.U5, { numbers: [2, 4, 6] });
    const before = await balanceOf(t, h.U5.id);
    expectStatus(await drawCall(t, h.U5.token, game.id, 1), 200);
    expect(await balanceOf(t, h.U5.id)).toBe(before - 3000);
    const response = await voidCall(t, h.U5.token, game.id, 'Customer dispute');
    expectStatus(response, 200);
    const voided = response.json<Game>();
    expect(voided).toMatchObject({
      status: 'voided',
      voidReason: 'Customer dispute',
      voidedBy: { id: h.U5.id },
      serverSeed: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(voided.draws).toHaveLength(1);
    expect(await balanceOf(t, h.U5.id)).toBe(before);
    expect(await ledgerRow(voided.transactionId)).toMatchObject({ status: 'voided', amount: '3000' });
    expect((await checkLedger(t.database.db)).ok).toBe(true);

    // Its upline (A3, S2) and the admin see it among the voided games; nobody else does.
    for (const member of [h.A3, h.S2, h.admin, h.U5]) {
      const list = await get(member.token, '/api/games?status=voided');
      expectStatus(list, 200);
      const row = list.json<GameSummary[]>().find((g) => g.id === game.id);
      expect(row).toMatchObject({ status: 'voided', drawsCount: 1, entriesCount: 3, voidReason: 'Customer dispute' });
      expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    }
    for (const member of [h.A1, h.S1, h.U1]) {
      const list = await get(member.token, '/api/games?status=voided');
      expect(list.json<GameSummary[]>().some((g) => g.id === game.id)).toBe(false);
    }
    // The proof of a voided game reveals its seed and checks out.
    const proof = (await get(null, `/api/verify/${game.code}`)).json<GameProof>();
    expect((await verifyProof(proof)).verdict).toBe('verified');
  });

  it('ledger:check notices a held pool that disagrees with its game', async () => {
    const voided = (await get(h.U5.token, '/api/games?status=voided')).json<GameSummary[]>()[0];
    const game = (await get(h.U5.token, `/api/games/${voided?.id}`)).json<Game>();
    expect((await checkLedger(t.database.db)).holds).toBe(0);
    // The voided game's row claims the pool still held: the books no longer match the games.
    await t.database.db.execute(sql`UPDATE transactions SET status = 'pending' WHERE id = ${game.transactionId}`);
    try {
      const report = await checkLedger(t.database.db);
      expect(report.holds).toBe(1);
      expect(report.ok).toBe(false);
    } finally {
      await t.database.db.execute(sql`UPDATE transactions SET status = 'voided' WHERE id = ${game.transactionId}`);
    }
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('someone else’s game cannot be touched: 404 for every call', async () => {
    const game = await openGame(t, h.U5, { numbers: [1] });
    for (const call of [
      () => putEntries(t, h.U1.token, game.id, []),
      () => drawCall(t, h.U1.token, game.id, 1),
      () => voidCall(t, h.U1.token, game.id, 'mine now'),
    ]) {
      await expectNoEffect(t, call, 404);
    }
    expectStatus(await voidCall(t, h.U5.token, game.id, 'cleanup'), 200);
  });
});

describe('the attacks of the browser-run game are refused and change nothing', () => {
  let settled: Game;
  beforeAll(async () => {
    await endCurrent(h.U2);
    settled = await drawAll(t, h.U2, await openGame(t, h.U2, { numbers: [1, 2, 3, 4, 5, 6] }));
  });

  it('POST /api/sales-history describing the settled game exactly answers its record and changes nothing', async () => {
    const response = await expectNoEffect(t, () => postGame(t, h.U2.token, salePayload(settled)), 200);
    expect(response.json<SaleDetail>().id).toBe(settled.saleId);
    const named = await expectNoEffect(
      t,
      () => postGame(t, h.U2.token, { ...salePayload(settled), gameId: settled.id }),
      200,
    );
    expect(named.json<SaleDetail>().id).toBe(settled.saleId);
  });

  it('hand-picked winning numbers are 422', async () => {
    const body = salePayload(settled);
    const picked = { ...settled, draws: settled.draws.map((d, i) => ({ ...d, number: [1, 2][i] ?? 1 })) };
    for (const payload of [
      salePayload(picked),
      { ...body, gameData: { ...body.gameData, winningNumbers: [1, 1] } },
      { ...body, gameData: { ...body.gameData, winningNumbers: [1, 1, 1], drawCount: 3 } },
    ]) {
      await expectNoEffect(t, () => postGame(t, h.U2.token, payload), 422);
    }
  });

  it('a game that was never played on the server is 422', async () => {
    await expectNoEffect(t, () => postGame(t, h.U3.token, { ...salePayload(settled), userId: h.U3.id }), 422);
    await expectNoEffect(t, () => postGame(t, h.U2.token, { ...salePayload(settled), userId: h.U3.id }), 403);
  });

  it('decrease is an admin correction with a required description', async () => {
    for (const member of [h.U2, h.A1, h.S1]) {
      await expectNoEffect(
        t,
        () => money(t, member.token, 'decrease', { userId: member.id, amount: '1.00', description: 'game' }),
        403,
      );
    }
    await expectNoEffect(t, () => money(t, t.adminToken, 'decrease', { userId: h.U2.id, amount: '1.00' }), 400);
    const before = await balanceOf(t, h.U2.id);
    const response = await money(t, t.adminToken, 'decrease', {
      userId: h.U2.id,
      amount: '1.00',
      description: 'Correction: double top-up',
    });
    expectStatus(response, 200);
    expect(await balanceOf(t, h.U2.id)).toBe(before - 100);
  });
});

describe('a player who leaves', () => {
  it('deleting a player with a game opened but not drawn ends that game as discarded', async () => {
    const t4 = await createMoneyTestApp();
    try {
      const h4 = await buildHierarchy(t4);
      await configureWinners(t4, null, [{ percent: '50', position: 1 }]);
      const game = await openGame(t4, h4.U2, { numbers: [1, 2] });
      expectStatus(await t4.request(h4.A1.token, { method: 'DELETE', url: `/api/users/${h4.U2.id}` }), 200);
      const read = await t4.request(h4.A1.token, { method: 'GET', url: `/api/games/${game.id}` });
      expect(read.json<Game>()).toMatchObject({
        status: 'discarded',
        voidReason: 'The player was deleted',
        voidedBy: { id: h4.A1.id },
      });
    } finally {
      await t4.close();
    }
  });
});
