import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundTimeMs } from '@lot/domain/beacon';
import { commitmentOf2, drawAt, drawSequence } from '@lot/domain/draw';
import { FREEZE_MARGIN_MS, freezeRound } from '@lot/domain/freeze-round';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import type { DrawResult, DrawWaiting, Game, GameProof, GameSummary } from '@lot/domain/schemas/games';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { findOwnEntries, verifyProof, type PinnedChain } from '@lot/domain/verify';
import { dumpPostgres, pgBin } from '../../db/backup.ts';
import { queryRows } from '../../db/client.ts';
import { neutralised } from '../../lib/export.ts';
import { SeedBox } from '../../lib/seed-box.ts';
import { verifyAudit } from '../audit/audit-chain.ts';
import { checkLedger } from '../balance/ledger.ts';
import { csvRows } from '../../test/csv.ts';
import { runDraw } from './draw.repository.ts';
import {
  configureWinners,
  drawAll,
  drawCall,
  drawPosition,
  expectNoEffect,
  freeze,
  gameAuditOf,
  openGame,
  openGameCall,
  participants,
  passRound,
  postGame,
  proofOf,
  putEntries,
  salePayload,
  seedOf,
  snapshot,
  voidCall,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, createMember, PASSWORD, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import {
  balanceOf,
  createMoneyTestApp,
  expectStatus,
  fund,
  money,
  expectBooksAndAuditSound,
} from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { latestRoundAt, type TestBeacon } from '../../test/test-beacon.ts';

/**
 * The server-run game (decisions 013, 036) under LOT-DRAW-2: opened, filled, frozen by the first
 * draw request (the pool held, round R named), drawn one position at a time once the test beacon
 * has published R, settled at the last draw; finished or voided by the upline once frozen; the
 * public proof. Every refusal changes nothing, the audit trail included. The clock stands still
 * but for the tests' moves, so "before R" lasts as long as a test needs. LOT-DRAW-1 and the
 * DRAW_BEACON modes: games.lot-draw-1.test.ts.
 */

let t: TestApp;
let h: Hierarchy;
let beacon: TestBeacon;
/** The verifier's pin for the test beacon's chain (a proof names it; only a pin makes it trusted). */
let pins: PinnedChain[];
beforeAll(async () => {
  t = await createMoneyTestApp({ stoppedClock: true });
  h = await buildHierarchy(t);
  if (!t.beacon) throw new Error('the test app has no beacon');
  beacon = t.beacon;
  pins = [
    {
      chainHash: beacon.chain.chainHash,
      publicKey: beacon.chain.publicKey,
      genesisTime: beacon.chain.genesisTime,
      period: beacon.chain.period,
      name: 'LOT test beacon',
    },
  ];
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
  await expectBooksAndAuditSound(t);
  await t.close();
});

const get = (token: string | null, url: string) => t.request(token, { method: 'GET', url });

async function ledgerRow(id: number | null) {
  const [row] = await queryRows<{ type: string; user_id: number; amount: string; status: string; description: string }>(
    t.database.db,
    sql`SELECT type, user_id, amount::text AS amount, status, description FROM transactions WHERE id = ${id}`,
  );
  return row;
}

/** The game row's own timestamps and its hold's, as text. */
async function timesOf(gameId: number) {
  const [row] = await queryRows<{ ended_at: string | null; held_at: string | null }>(
    t.database.db,
    sql`SELECT r.ended_at::text AS ended_at, x.created_at::text AS held_at
      FROM game_rounds r LEFT JOIN transactions x ON x.id = r.transaction_id WHERE r.id = ${gameId}`,
  );
  if (!row) throw new Error(`no game ${gameId}`);
  return row;
}

/** Draws k = from.length + 1 … count recomputed with drawAt, after the numbers `from`. */
async function recompute(
  seed: string,
  digest: string,
  range: { startRange: number; endRange: number },
  from: number[],
  count: number,
  randomness: string | undefined,
): Promise<number[]> {
  const drawn = [...from];
  for (let k = from.length + 1; k <= count; k++) {
    drawn.push((await drawAt(seed, digest, k, range, drawn, randomness)).number);
  }
  return drawn.slice(from.length);
}

/** Ends whatever game the member has in progress, so a test starts clean (a frozen one by the admin). */
async function endCurrent(member: Member) {
  const current = await get(member.token, '/api/games/current');
  expectStatus(current, 200);
  const game = current.json<Game | null>();
  if (!game) return;
  const token = game.status === 'open' ? member.token : t.adminToken;
  expectStatus(await voidCall(t, token, game.id, 'cleanup'), 200);
}

describe('opening a game', () => {
  it('201: the game with its id, an unguessable code, LOT-DRAW-2 with the beacon pinned, the commitment and the prizes sorted by position', async () => {
    const response = await openGameCall(t, h.U1.token, { startRange: 1, endRange: 20, betAmount: '10.00' });
    expectStatus(response, 201);
    const game = response.json<Game>();
    const { chainHash, publicKey, genesisTime, period } = beacon.chain;
    expect(game).toMatchObject({
      status: 'open',
      userId: h.U1.id,
      startRange: 1,
      endRange: 20,
      betAmount: '10.00',
      pool: '0.00',
      protocol: 'LOT-DRAW-2',
      beacon: {
        chainHash,
        publicKey,
        genesisTime,
        period,
        round: null,
        expectedAt: null,
        signature: null,
        randomness: null,
      },
      frozenAt: null,
      entries: [],
      draws: [],
      unplayedDraws: [],
      serverSeed: null,
      saleId: null,
      transactionId: null,
    });
    // 16 random bytes, base64url: 128 bits, URL-safe.
    expect(game.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The commitment binds the protocol and the beacon to the seed (decision 036).
    expect(game.commitment).toBe(
      await commitmentOf2(await seedOf(t, game), { chainHash, publicKey, genesisTime, period }),
    );
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

describe('a whole game', () => {
  let game: Game;
  /** Round R: the first of the beacon's rounds strictly after the freeze. */
  let R: number;
  let waiting: DrawWaiting;
  const entries = [
    { number: 3, name: 'Ana Lopez', phoneNumber: '555 0101 234' },
    { number: 7, name: 'Ben Okafor', phoneNumber: '+1-555-0102' },
    { number: 9, name: 'Carla Diaz', phoneNumber: '5550103' },
    { number: 12, name: 'Dev Patel', phoneNumber: '5550104' },
  ];
  const plain = (g: Game) => g.entries.map((e) => ({ number: e.number, name: e.name, phoneNumber: e.phoneNumber }));

  it('entries replace the participants while nothing is frozen, in the order given', async () => {
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
      { position: 1, round: 1 },
    ]) {
      await expectNoEffect(
        t,
        () => t.request(h.U1.token, { method: 'POST', url: `/api/games/${game.id}/draws`, payload: body }),
        400,
      );
    }
  });

  it('the first draw request freezes the game: 202 for round R, the pool held, the entries fixed, one audit row', async () => {
    const before = await balanceOf(t, h.U1.id);
    const asked = t.now();
    const response = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(response, 202);
    waiting = response.json<DrawWaiting>();
    game = waiting.game;
    const frozenAt = Date.parse(game.frozenAt ?? '');
    expect(frozenAt).toBe(asked);
    // R follows from L, the latest round the beacon had just before the freeze (decision 076): L is
    // the round the beacon serves as latest now, and R the first round at least the margin after
    // both L + 1 and the clock.
    R = waiting.waitingForRound;
    const L = latestRoundAt(beacon.chain, frozenAt);
    expect(game.beacon?.latestRound).toBe(L);
    expect(freezeRound(beacon.chain, { latest: L, now: frozenAt, marginMs: FREEZE_MARGIN_MS })).toEqual({ round: R });
    expect(roundTimeMs(beacon.chain, R)).toBeGreaterThan(frozenAt + FREEZE_MARGIN_MS);
    const expectedAt = new Date(roundTimeMs(beacon.chain, R)).toISOString();
    expect(waiting).toMatchObject({ waitingForRound: R, expectedAt, beaconUnreachable: false });
    expect(waiting.retryAfterMs).toBeGreaterThan(roundTimeMs(beacon.chain, R) - t.now());
    expect(Number(response.headers['retry-after'])).toBe(Math.max(1, Math.ceil(waiting.retryAfterMs / 1000)));
    expect(game).toMatchObject({
      status: 'drawing',
      draws: [],
      pool: '40.00',
      beacon: { round: R, expectedAt, signature: null, randomness: null },
      serverSeed: null,
    });
    // The pool is held as a pending ledger row.
    expect(await balanceOf(t, h.U1.id)).toBe(before - 4000);
    expect(await ledgerRow(game.transactionId)).toEqual({
      type: 'game',
      user_id: h.U1.id,
      amount: '4000',
      status: 'pending',
      description: 'Game in progress with 4 numbers',
    });
    expect((await checkLedger(t.database.db)).ok).toBe(true);
    // The entries are fixed.
    await expectNoEffect(t, () => putEntries(t, h.U1.token, game.id, entries), 409, {
      message: 'The draw has started: the participants can no longer change',
    });
    // One audit row names R, written with the hold (the same transaction: the same now()).
    const proof = await proofOf(t, game.code);
    const frozen = (await gameAuditOf(t, game.id)).filter((row) => row.action === 'game.frozen');
    expect(frozen).toHaveLength(1);
    expect(frozen[0]).toMatchObject({
      actor_id: h.U1.id,
      details: {
        code: game.code,
        protocol: 'LOT-DRAW-2',
        entries: 4,
        entriesDigest: proof.entriesDigest,
        pool: '40.00',
        frozenAt: game.frozenAt,
        beaconRound: R,
      },
    });
    expect(frozen[0]?.at).toBe((await timesOf(game.id)).held_at);
  });

  it('until the clock reaches R every request answers 202 and changes nothing; the beacon itself refuses R', async () => {
    t.advanceClock(roundTimeMs(beacon.chain, R) - t.now() - 1);
    const relay = await fetch(`${beacon.url}/${beacon.chain.chainHash}/public/${R}`);
    expect(relay.status).toBe(425);
    await relay.body?.cancel();
    const otherDevice = await t.login(h.U1.username, PASSWORD);
    for (const token of [h.U1.token, otherDevice, h.A1.token, t.adminToken]) {
      const again = await expectNoEffect(t, () => drawCall(t, token, game.id, 1), 202);
      expect(again.json<DrawWaiting>()).toMatchObject({
        waitingForRound: R,
        expectedAt: waiting.expectedAt,
        beaconUnreachable: false,
        game: { status: 'drawing', draws: [], beacon: { round: R, signature: null } },
      });
    }
    await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 2), 409);
  });

  it('once the clock passes R the first draw stores R’s verified signature and draws with its randomness', async () => {
    passRound(t, waiting);
    const before = await balanceOf(t, h.U1.id);
    const response = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(response, 200);
    const result = response.json<DrawResult>();
    game = result.game;
    expect(result.position).toBe(1);
    expect(game.status).toBe('drawing');
    const signed = beacon.sign(R);
    expect(game.beacon).toMatchObject({ round: R, signature: signed.signature, randomness: signed.randomness });
    // The pool was held at the freeze; the draw holds nothing more.
    expect(await balanceOf(t, h.U1.id)).toBe(before);
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

  it('the game continues on another device: a new sign-in finds it and draws the next position at once', async () => {
    const otherDevice = await t.login(h.U1.username, PASSWORD);
    const current = await get(otherDevice, '/api/games/current');
    expectStatus(current, 200);
    expect(current.json<Game>()).toEqual(game);
    const response = await drawCall(t, otherDevice, game.id, 2);
    expectStatus(response, 200);
    game = response.json<DrawResult>().game;
    expect(game.draws).toHaveLength(2);
  });

  it('the proof before the end: the commitment, the beacon and R, masked entries, salted hashes, no seed, pending', async () => {
    const response = await get(null, `/api/verify/${game.code}`);
    expectStatus(response, 200);
    const proof = response.json<GameProof>();
    expect(proof).toMatchObject({
      algorithm: 'LOT-DRAW-2',
      serverSeed: null,
      commitment: game.commitment,
      shopName: h.U1.fullName,
      frozenAt: game.frozenAt,
      beacon: game.beacon,
      unplayedDraws: [],
      voidedBy: null,
    });
    expect(proof.entries.map((e) => [e.number, e.name, e.phoneNumber])).toEqual([
      [3, 'A*** L***', '****1234'],
      [7, 'B*** O***', '****0102'],
      [9, 'C*** D***', '****0103'],
      [12, 'D*** P***', '****0104'],
    ]);
    expect(response.body).not.toContain('Ana Lopez');
    expect(response.body).not.toContain('555 0101 234');
    for (const entry of game.entries) expect(response.body).not.toContain(entry.nonce);
    expect((await verifyProof(proof, pins)).verdict).toBe('pending');
  });

  it('the last draw settles the game in the same transaction; every draw is drawAt(seed, digest, k, range, drawn, R’s randomness)', async () => {
    const response = await drawCall(t, h.U1.token, game.id, 3);
    expectStatus(response, 200);
    game = response.json<DrawResult>().game;
    expect(game.status).toBe('settled');
    expect(game.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    const drawn = game.draws.map((d) => d.number);
    expect(new Set(drawn).size).toBe(3);
    // Recomputed here from the revealed seed, the proof's digest and round R's randomness.
    const proof = await proofOf(t, game.code);
    const randomness = beacon.sign(R).randomness;
    expect(await recompute(game.serverSeed ?? '', proof.entriesDigest, game, [], 3, randomness)).toEqual(drawn);
    expect(await drawSequence(game.serverSeed ?? '', proof.entriesDigest, game, 3, randomness)).toEqual(drawn);
    // Pinned to the test beacon's chain, the proof verifies; drand quicknet's pin refuses its chain.
    const report = await verifyProof(proof, pins);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
    const quicknet = await verifyProof(proof);
    expect(quicknet.verdict).toBe('unpinned');
    expect(quicknet.checks.find((c) => !c.ok)?.name).toBe('Beacon chain');

    const sale = (await get(h.U1.token, `/api/sales-history/${game.saleId}`)).json<SaleDetail>();
    const winners = sale.winners.length;
    expect(sale.gameData.winningNumbers).toEqual(drawn);
    expect(sale.gameData.selectedNumbers).toEqual(plain(game));
    expect(sale.totalPrize).toBe(game.totalPrize);
    expect(sale.commission).toBe(game.commission);
    expect(sale.transactionId).toBe(game.transactionId);
    expect(await ledgerRow(game.transactionId)).toEqual({
      type: 'game',
      user_id: h.U1.id,
      amount: '4000',
      status: 'completed',
      description: `Game played with 4 numbers, ${winners === 1 ? '1 winner' : `${winners} winners`}`,
    });
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('after the end nothing more is drawn, entered or voided', async () => {
    await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 4), 409, { message: MESSAGES.allWinnersDrawn });
    await expectNoEffect(t, () => putEntries(t, h.U1.token, game.id, entries), 409);
    await expectNoEffect(t, () => voidCall(t, h.U1.token, game.id, 'too late'), 409);
    await expectNoEffect(t, () => voidCall(t, t.adminToken, game.id, 'too late'), 409);
    // No game in progress is an ordinary state: 200 with null, not a 404.
    const none = await get(h.U1.token, '/api/games/current');
    expectStatus(none, 200);
    expect(none.json()).toBeNull();
  });

  it('the game row in Transactions carries its description and code', async () => {
    const rows = (await get(h.U1.token, '/api/transactions?type=game')).json<MoneyResult['transaction'][]>();
    expect(rows.find((r) => r.id === game.transactionId)).toMatchObject({
      status: 'completed',
      gameCode: game.code,
      gameNumber: game.number,
      description: expect.stringMatching(/^Game played with 4 numbers, (1 winner|[02-9] winners)$/),
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

describe('entries: one nonce per person', () => {
  const ana = { name: 'Ana Lopez', phoneNumber: '555 0101 234' };
  const ben = { name: 'Ben Okafor', phoneNumber: '+1-555-0102' };
  /** Another person: the same name, another phone. */
  const otherAna = { name: 'Ana Lopez', phoneNumber: '555 0999' };
  /** Ana again, typed another way (an Ł for the L, 00 before the digits): the same person (docs/lot-draw-2.md#entries). */
  const anaAgain = { name: ' ana  ŁÓPEZ', phoneNumber: '00555-0101-234' };
  let game: Game;
  const nonceOf = (g: Game, number: number) => g.entries.find((e) => e.number === number)?.nonce;

  it('a PUT gives each new person a nonce of 16 hex digits, shared by all their entries and kept by later PUTs', async () => {
    await endCurrent(h.U2);
    const opened = await openGameCall(t, h.U2.token, { startRange: 1, endRange: 20, betAmount: '2.00' });
    expectStatus(opened, 201);
    const first = await putEntries(t, h.U2.token, opened.json<Game>().id, [
      { number: 3, ...ana },
      { number: 7, ...ben },
      { number: 9, ...ana },
    ]);
    expectStatus(first, 200);
    game = first.json<Game>();
    for (const entry of game.entries) expect(entry.nonce).toMatch(/^[0-9a-f]{16}$/);
    const anaNonce = nonceOf(game, 3);
    const benNonce = nonceOf(game, 7);
    expect(nonceOf(game, 9)).toBe(anaNonce);
    expect(benNonce).not.toBe(anaNonce);

    // Number 3 given up, two more added: Ana and Ben keep theirs, the other Ana gets her own.
    const second = await putEntries(t, h.U2.token, game.id, [
      { number: 9, ...ana },
      { number: 7, ...ben },
      { number: 12, ...otherAna },
      { number: 15, ...ana },
      { number: 18, ...anaAgain },
    ]);
    expectStatus(second, 200);
    game = second.json<Game>();
    expect(nonceOf(game, 9)).toBe(anaNonce);
    expect(nonceOf(game, 15)).toBe(anaNonce);
    expect(nonceOf(game, 18)).toBe(anaNonce);
    expect(nonceOf(game, 7)).toBe(benNonce);
    expect(nonceOf(game, 12)).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set([anaNonce, benNonce, nonceOf(game, 12)]).size).toBe(3);
  });

  it('the public proof hashes each entry with its nonce, shows neither the nonce nor an unsalted hash, and masks with a fixed shape', async () => {
    const response = await get(null, `/api/verify/${game.code}`);
    expectStatus(response, 200);
    const proof = response.json<GameProof>();
    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    expect(proof.entries.map((e) => e.number)).toEqual([7, 9, 12, 15, 18]);
    for (const entry of game.entries) {
      const shown = proof.entries.find((e) => e.number === entry.number);
      // The name and phone in canonical form: lower case, accents, ł and spaces gone; digits without 00.
      const name = entry.name
        .toLowerCase()
        .normalize('NFKD')
        .replace(/\p{M}|\s/gu, '')
        .replace(/ł/g, 'l');
      const text = `${entry.number}\n${name}\n${entry.phoneNumber.replace(/\D/g, '').replace(/^00/, '')}`;
      expect(shown?.entryHash).toBe(sha256(`${text}\n${entry.nonce}`));
      expect(response.body).not.toContain(sha256(text));
      expect(response.body).not.toContain(sha256(`${entry.number}\n${entry.name}\n${entry.phoneNumber}`));
      expect(response.body).not.toContain(entry.nonce);
    }
    expect(Object.keys(proof.entries[0] ?? {}).sort()).toEqual(['entryHash', 'name', 'number', 'phoneNumber']);
    expect(proof.entries.map((e) => [e.name, e.phoneNumber])).toEqual([
      ['B*** O***', '****0102'],
      ['A*** L***', '****1234'],
      ['A*** L***', '****0999'],
      ['A*** L***', '****1234'],
      ['a*** Ł***', '****1234'],
    ]);
    for (const entry of proof.entries) {
      expect(entry.name).toMatch(/^\S\*{3}( \S\*{3})*$/);
      expect(entry.phoneNumber).toMatch(/^\*{4}\d{4}$/);
    }
  });

  it('findOwnEntries with name, phone and nonce finds every number a person holds, and nothing without the nonce', async () => {
    const proof = await proofOf(t, game.code);
    const anaNonce = nonceOf(game, 9) ?? '';
    expect(await findOwnEntries(proof, { ...ana, nonce: anaNonce })).toEqual([9, 15, 18]);
    // As printed on the slip, in groups, or in capitals; the name and phone typed another way.
    expect(await findOwnEntries(proof, { ...ana, nonce: anaNonce.toUpperCase().replace(/(.{4})/g, '$1 ') })).toEqual([
      9, 15, 18,
    ]);
    expect(await findOwnEntries(proof, { name: 'ANA LÓPEZ', phoneNumber: '5550101234', nonce: anaNonce })).toEqual([
      9, 15, 18,
    ]);
    expect(await findOwnEntries(proof, { ...otherAna, nonce: nonceOf(game, 12) ?? '' })).toEqual([12]);
    expect(await findOwnEntries(proof, { ...ben, nonce: nonceOf(game, 7) ?? '' })).toEqual([7]);
    expect(await findOwnEntries(proof, { ...ana, nonce: nonceOf(game, 12) ?? '' })).toEqual([]);
    expect(await findOwnEntries(proof, ana)).toEqual([]);
    expectStatus(await voidCall(t, h.U2.token, game.id, 'cleanup'), 200);
  });
});

describe('the pool, the balance and concurrency', () => {
  it('a pool the balance does not cover: "Insufficient balance", nothing frozen, nothing held', async () => {
    await endCurrent(h.U3);
    const game = await openGame(t, h.U3, { numbers: [1, 2, 3], bet: '400.00' });
    const response = await expectNoEffect(t, () => drawCall(t, h.U3.token, game.id, 1), 422, {
      message: MESSAGES.insufficientBalance,
    });
    expect(response.json().fieldErrors).toEqual({ betAmount: MESSAGES.insufficientBalance });
    expectStatus(await voidCall(t, h.U3.token, game.id, 'too expensive'), 200);
  });

  it('a game with nobody in it cannot be frozen: "No numbers have been selected yet!"', async () => {
    const opened = await openGameCall(t, h.U3.token, { startRange: 1, endRange: 20, betAmount: '1' });
    expectStatus(opened, 201);
    await expectNoEffect(t, () => drawCall(t, h.U3.token, opened.json<Game>().id, 1), 422, {
      message: MESSAGES.noNumbersSelected,
    });
    expectStatus(await voidCall(t, h.U3.token, opened.json<Game>().id, 'nobody came'), 200);
  });

  it('eight concurrent first requests freeze once; eight after R draw once and all answer the same number', async () => {
    const game = await openGame(t, h.U3, { numbers: [1, 2, 3, 4, 5] });
    // No settings of its own: the active global ones, the inactive third left out.
    expect(game.prizes.map((p) => p.percentBps)).toEqual([6000, 4000]);
    const before = await balanceOf(t, h.U3.id);
    const freezes = await Promise.all(Array.from({ length: 8 }, () => drawCall(t, h.U3.token, game.id, 1)));
    for (const answer of freezes) expectStatus(answer, 202);
    expect(new Set(freezes.map((a) => a.json<DrawWaiting>().waitingForRound)).size).toBe(1);
    expect(new Set(freezes.map((a) => a.json<DrawWaiting>().game.frozenAt)).size).toBe(1);
    expect(await balanceOf(t, h.U3.id)).toBe(before - 5000);
    const [held] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM transactions WHERE user_id = ${h.U3.id} AND status = 'pending'`,
    );
    expect(Number(held?.n)).toBe(1);
    expect((await gameAuditOf(t, game.id)).filter((row) => row.action === 'game.frozen')).toHaveLength(1);

    passRound(t, freezes[0]?.json<DrawWaiting>() ?? { expectedAt: '' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => drawCall(t, h.U3.token, game.id, 1)));
    for (const answer of answers) expectStatus(answer, 200);
    expect(new Set(answers.map((a) => a.json<DrawResult>().number)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await balanceOf(t, h.U3.id)).toBe(before - 5000);
    const current = (await get(h.U3.token, '/api/games/current')).json<Game>();
    expect(current.draws).toHaveLength(1);
    expect((await gameAuditOf(t, game.id)).filter((row) => row.action === 'game.drawn')).toHaveLength(1);
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
    expect((await gameAuditOf(t, game.id)).map((row) => row.action)).toEqual([
      'game.opened',
      'game.entries_changed',
      'game.frozen',
      'game.drawn',
      'game.drawn',
      'game.settled',
    ]);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('a draw by the shop and a void by its upline sent together: one of them wins whole, and the money matches the outcome', async () => {
    for (let round = 0; round < 6; round++) {
      const game = await openGame(t, h.U4, { numbers: [1, 2, 3] });
      expectStatus(await drawPosition(t, h.U4.token, game.id, 1), 200);
      const before = await balanceOf(t, h.U4.id);
      // U4's upline is its super agent, S1.
      const [drawn, voided] = await Promise.all([
        drawCall(t, h.U4.token, game.id, 2),
        voidCall(t, h.S1.token, game.id, 'race'),
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
      const ends = (await gameAuditOf(t, game.id)).filter((row) =>
        ['game.settled', 'game.voided'].includes(row.action),
      );
      expect(ends.map((row) => row.action)).toEqual([final.status === 'settled' ? 'game.settled' : 'game.voided']);
    }
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('a draw decided on a game that moved since it was read writes nothing, not even an audit row', async () => {
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
      draws: [],
      digest: 'stale',
      freeze: { at: new Date(t.now()), beaconRound: 1, latestRound: null },
      holdDescription: 'Game in progress with 3 numbers',
      audit: { address: null, rows: [{ action: 'game.frozen' as const, details: { code: game.code } }] },
    };
    // It answers that it wrote nothing, and none of the columns only a write would know (decision 052).
    const nothing = { locked: false, drawn: false, transactionId: null, saleId: null, shiftId: null, endedAt: null };
    expect(await runDraw(t.database.db, stale)).toEqual(nothing);
    // The same with a draw count that moved on.
    const late = await runDraw(t.database.db, {
      ...stale,
      read: { ...stale.read, entries: participants([4, 5, 6, 7]), drawn: 1 },
    });
    expect(late).toEqual(nothing);
    expect(await snapshot(t)).toEqual(before);
    // Through the API the freeze reads again and fixes the four participants.
    const first = await freeze(t, h.U5.token, game.id);
    expect(first.game.pool).toBe('40.00');
    // The shop may no longer void it; its agent does.
    expectStatus(await voidCall(t, h.A3.token, game.id, 'cleanup'), 200);
  });

  it('every number of a range is drawn exactly once when the prizes cover it', async () => {
    const ten = await createMember(t, { username: 'user_ten', fullName: 'User Ten', role: 'user', parentId: h.A1.id });
    const settings = Array.from({ length: 10 }, (_, i) => ({ percent: '10', position: i + 1 }));
    await configureWinners(t, ten.id, settings);
    await fund(t, ten.id, '100.00');
    const game = await openGame(t, ten, { numbers: [41, 45, 50], start: 41, end: 50, bet: '1' });
    const settled = await drawAll(t, ten, game);
    expect([...settled.draws.map((d) => d.number)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => 41 + i),
    );
    // Three participants, each wins 10 % of 3.00: 0.90 paid, 2.10 commission.
    expect(settled.totalPrize).toBe('0.90');
    expect(settled.commission).toBe('2.10');
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('one number and one winner read in the singular on the ledger row: "1 number, 1 winner"', async () => {
    const one = await createMember(t, {
      username: 'user_single',
      fullName: 'User Single',
      role: 'user',
      parentId: h.A1.id,
    });
    await configureWinners(t, one.id, [
      { percent: '50', position: 1 },
      { percent: '20', position: 2 },
    ]);
    await fund(t, one.id, '10.00');
    // Both numbers of 1–2 are drawn and one of them is the only entry: exactly one winner.
    const game = await openGame(t, one, { numbers: [1], start: 1, end: 2, bet: '1' });
    const held = (await freeze(t, one.token, game.id)).game;
    expect((await ledgerRow(held.transactionId))?.description).toBe('Game in progress with 1 number');
    const settled = await drawAll(t, one, held);
    expect(settled.status).toBe('settled');
    expect((await ledgerRow(settled.transactionId))?.description).toBe('Game played with 1 number, 1 winner');
  });
});

describe('an announced game always settles', () => {
  it('winner settings changed between draws: the game pays what it opened with', async () => {
    await endCurrent(h.U4);
    const game = await openGame(t, h.U4, { numbers: participants([1, 2, 3]) });
    expectStatus(await drawPosition(t, h.U4.token, game.id, 1), 200);
    // The admin rewrites the global scheme mid-game: 3 positions now, other percentages.
    const ids = await configureWinners(t, null, [{ percent: '5', position: 3 }]);
    const settled = await drawAll(t, h.U4, game);
    expect(settled.status).toBe('settled');
    expect(settled.prizes.map((p) => p.percentBps)).toEqual([6000, 4000]);
    expect(settled.draws).toHaveLength(2);
    for (const id of ids)
      expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/winners/${id}` }), 200);
  });

  it('the balance transferred away after the freeze: the pool was held, the game settles', async () => {
    const game = await openGame(t, h.U4, { numbers: [4, 5, 6], bet: '5.00' });
    await freeze(t, h.U4.token, game.id);
    const rest = ((await balanceOf(t, h.U4.id)) / 100).toFixed(2);
    expectStatus(await money(t, h.U4.token, 'transfer', { receiverId: h.U1.id, amount: rest }), 200);
    expect(await balanceOf(t, h.U4.id)).toBe(0);
    const settled = await drawAll(t, h.U4, game);
    expect(settled.status).toBe('settled');
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});

describe('a frozen game: fixed, finished or voided by the upline', () => {
  /** U1 opens a game with four participants and freezes it. */
  async function frozenGame(): Promise<{ game: Game; waiting: DrawWaiting }> {
    await endCurrent(h.U1);
    const game = await openGame(t, h.U1, { numbers: [2, 5, 11, 17] });
    const waiting = await freeze(t, h.U1.token, game.id);
    return { game: waiting.game, waiting };
  }

  it('its shop can no longer void it: 403 with the message, before and after a draw, nothing changed', async () => {
    const { game, waiting } = await frozenGame();
    await expectNoEffect(t, () => voidCall(t, h.U1.token, game.id, 'changed my mind'), 403, {
      message: SERVER_MESSAGES.operatorCannotVoidFrozen,
    });
    passRound(t, waiting);
    expectStatus(await drawCall(t, h.U1.token, game.id, 1), 200);
    await expectNoEffect(t, () => voidCall(t, h.U1.token, game.id, 'a winner I do not like'), 403, {
      message: SERVER_MESSAGES.operatorCannotVoidFrozen,
    });
    expectStatus(await voidCall(t, h.A1.token, game.id, 'cleanup'), 200);
  });

  it('its agent, super agent and the admin each finish one: the remaining draws, settled for the shop, the actor audited', async () => {
    for (const upline of [h.A1, h.S1, h.admin]) {
      const { game } = await frozenGame();
      const shopBefore = await balanceOf(t, h.U1.id);
      const uplineBefore = upline.role === 'admin' ? 0 : await balanceOf(t, upline.id);
      let finished = game;
      for (let position = 1; position <= 3; position++) {
        const drawn = await drawPosition(t, upline.token, game.id, position);
        expectStatus(drawn, 200);
        finished = drawn.json<DrawResult>().game;
      }
      expect(finished.status).toBe('settled');
      // The settlement is the shop's: its sales-history record, its ledger row completed; the
      // upline's balance untouched, the shop's the pool it paid at the freeze.
      const sale = await get(h.U1.token, `/api/sales-history/${finished.saleId}`);
      expectStatus(sale, 200);
      expect(sale.json<SaleDetail>()).toMatchObject({
        userId: h.U1.id,
        commission: finished.commission,
        totalPrize: finished.totalPrize,
      });
      expect(await ledgerRow(finished.transactionId)).toMatchObject({
        user_id: h.U1.id,
        amount: '4000',
        status: 'completed',
      });
      expect(await balanceOf(t, h.U1.id)).toBe(shopBefore);
      if (upline.role !== 'admin') expect(await balanceOf(t, upline.id)).toBe(uplineBefore);
      const rows = await gameAuditOf(t, game.id);
      expect(rows.map((row) => [row.action, row.actor_id])).toEqual([
        ['game.opened', h.U1.id],
        ['game.entries_changed', h.U1.id],
        ['game.frozen', h.U1.id],
        ['game.drawn', upline.id],
        ['game.drawn', upline.id],
        ['game.drawn', upline.id],
        ['game.settled', upline.id],
      ]);
      const proof = await proofOf(t, game.code);
      expect((await verifyProof(proof, pins)).verdict).toBe('verified');
    }
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('its agent, super agent and the admin each void one: the pool back, the seed revealed, the draws it would have made, none paid', async () => {
    const masked = { A1: 'A*** O***', S1: 'S*** O***', admin: maskedAdmin() };
    for (const [key, upline] of [
      ['A1', h.A1],
      ['S1', h.S1],
      ['admin', h.admin],
    ] as const) {
      const { game } = await frozenGame();
      const first = await drawPosition(t, h.U1.token, game.id, 1);
      expectStatus(first, 200);
      const before = await balanceOf(t, h.U1.id);
      const response = await voidCall(t, upline.token, game.id, 'Shop closed mid-game');
      expectStatus(response, 200);
      const voided = response.json<Game>();
      expect(voided).toMatchObject({
        status: 'voided',
        voidReason: 'Shop closed mid-game',
        voidedBy: { id: upline.id, role: upline.role, fullName: upline.fullName },
        serverSeed: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(voided.draws).toHaveLength(1);
      expect(await balanceOf(t, h.U1.id)).toBe(before + 4000);
      expect(await ledgerRow(voided.transactionId)).toMatchObject({ status: 'voided', amount: '4000' });
      // The two draws it would have made after the first, recomputed from the seed, the digest and R.
      const proof = await proofOf(t, game.code);
      const randomness = voided.beacon?.randomness ?? undefined;
      expect(randomness).toBe(beacon.sign(voided.beacon?.round ?? 0).randomness);
      const drawn = voided.draws.map((d) => d.number);
      const unplayed = await recompute(voided.serverSeed ?? '', proof.entriesDigest, voided, drawn, 3, randomness);
      expect(voided.unplayedDraws.map((d) => [d.position, d.number])).toEqual(unplayed.map((n, i) => [i + 2, n]));
      expect(proof.unplayedDraws.map((d) => d.number)).toEqual(unplayed);
      expect(proof.voidedBy).toEqual({ role: upline.role, name: masked[key] });
      const report = await verifyProof(proof, pins);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.verdict).toBe('verified');
      // None paid: no sales-history record, no winners.
      expect(voided.saleId).toBeNull();
      // One audit row, by the upline, written by the void's statement (the same now() as ended_at).
      const rows = await gameAuditOf(t, game.id);
      const ends = rows.filter((row) => row.action === 'game.voided');
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({
        actor_id: upline.id,
        details: { status: 'voided', reason: 'Shop closed mid-game', returned: '40.00', drawn: 1 },
      });
      expect(ends[0]?.at).toBe((await timesOf(game.id)).ended_at);
    }
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('an upline outside the game’s scope gets 404 for a draw and a void; another shop too', async () => {
    const { game, waiting } = await frozenGame();
    passRound(t, waiting);
    for (const member of [h.A2, h.A3, h.S2, h.U2]) {
      await expectNoEffect(t, () => drawCall(t, member.token, game.id, 1), 404);
      await expectNoEffect(t, () => voidCall(t, member.token, game.id, 'not mine'), 404);
    }
    expectStatus(await voidCall(t, h.S1.token, game.id, 'cleanup'), 200);
  });

  it('an upline cannot start the draw of an open game (403), but may discard it', async () => {
    await endCurrent(h.U1);
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3] });
    for (const member of [h.A1, h.S1, h.admin]) {
      await expectNoEffect(t, () => drawCall(t, member.token, game.id, 1), 403, {
        message: SERVER_MESSAGES.uplineCannotStart,
      });
    }
    const response = await voidCall(t, h.A1.token, game.id, 'Shop closed before the draw');
    expectStatus(response, 200);
    expect(response.json<Game>()).toMatchObject({ status: 'discarded', voidedBy: { id: h.A1.id, role: 'agent' } });
  });

  it('voided before R exists: no draws to show yet; once the clock passes R the proof fetches R and shows every one', async () => {
    const { game, waiting } = await frozenGame();
    const response = await voidCall(t, h.A1.token, game.id, 'Power cut');
    expectStatus(response, 200);
    const voided = response.json<Game>();
    expect(voided).toMatchObject({
      status: 'voided',
      draws: [],
      unplayedDraws: [],
      beacon: { round: waiting.waitingForRound, signature: null, randomness: null },
    });
    expect(voided.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    const early = await proofOf(t, game.code);
    expect(early.unplayedDraws).toEqual([]);
    expect(early.beacon?.signature).toBeNull();

    passRound(t, waiting);
    const proof = await proofOf(t, game.code);
    const signed = beacon.sign(waiting.waitingForRound);
    expect(proof.beacon).toMatchObject({
      round: signed.round,
      signature: signed.signature,
      randomness: signed.randomness,
    });
    const unplayed = await recompute(voided.serverSeed ?? '', proof.entriesDigest, voided, [], 3, signed.randomness);
    expect(proof.unplayedDraws.map((d) => [d.position, d.number])).toEqual(unplayed.map((n, i) => [i + 1, n]));
    const report = await verifyProof(proof, pins);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'Unplayed draws')?.ok).toBe(true);
    // Kept with the game: its own view shows them too.
    const read = (await get(h.A1.token, `/api/games/${game.id}`)).json<Game>();
    expect(read.unplayedDraws.map((d) => d.number)).toEqual(unplayed);
  });

  it('voided after R’s time by a shop that never drew: the void fetches R and answers the draws it would have made', async () => {
    const { game, waiting } = await frozenGame();
    passRound(t, waiting);
    const response = await voidCall(t, h.S1.token, game.id, 'Shop closed after the freeze');
    expectStatus(response, 200);
    const voided = response.json<Game>();
    const signed = beacon.sign(waiting.waitingForRound);
    expect(voided.beacon).toMatchObject({ signature: signed.signature, randomness: signed.randomness });
    const proof = await proofOf(t, game.code);
    const unplayed = await recompute(voided.serverSeed ?? '', proof.entriesDigest, voided, [], 3, signed.randomness);
    expect(voided.unplayedDraws.map((d) => [d.position, d.number])).toEqual(unplayed.map((n, i) => [i + 1, n]));
    expect((await verifyProof(proof, pins)).verdict).toBe('verified');
  });
});

/** The admin's masked full name (buildHierarchy reads it from the database). */
function maskedAdmin(): string {
  return h.admin.fullName
    .trim()
    .split(/\s+/)
    .map((word) => `${Array.from(word)[0]}***`)
    .join(' ');
}

describe('the beacon in trouble at round R', () => {
  it('down, garbage, a wrong signature: 202 with beaconUnreachable, nothing drawn or changed; back up, R and only R draws', async () => {
    await endCurrent(h.U1);
    const game = await openGame(t, h.U1, { numbers: [1, 4, 9, 16], end: 100 });
    const waiting = await freeze(t, h.U1.token, game.id);
    const R = waiting.waitingForRound;
    try {
      for (const failing of ['down', 'garbage', 'wrong-signature'] as const) {
        beacon.setFailing(failing);
        // Rounds R, R + 1, R + 2 … are all due by now: the game waits for R, and for R alone.
        t.advanceClock(roundTimeMs(beacon.chain, R + 2) - t.now() + 1);
        const response = await expectNoEffect(t, () => drawCall(t, h.U1.token, game.id, 1), 202);
        expect(response.json<DrawWaiting>()).toMatchObject({
          waitingForRound: R,
          expectedAt: waiting.expectedAt,
          beaconUnreachable: true,
          game: { status: 'drawing', draws: [], beacon: { round: R, signature: null } },
        });
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    } finally {
      beacon.setFailing('none');
    }
    t.advanceClock(5 * beacon.chain.period * 1000);
    const drawn = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(drawn, 200);
    const signed = beacon.sign(R);
    expect(drawn.json<DrawResult>().game.beacon).toMatchObject({
      round: R,
      signature: signed.signature,
      randomness: signed.randomness,
    });
    const settled = await drawAll(t, h.U1, drawn.json<DrawResult>().game);
    const proof = await proofOf(t, game.code);
    expect(settled.draws.map((d) => d.number)).toEqual(
      await drawSequence(settled.serverSeed ?? '', proof.entriesDigest, settled, 3, signed.randomness),
    );
    const report = await verifyProof(proof, pins);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('what a copy of the database, and the seed, reveal before round R', () => {
  let game: Game;
  let seed: string;

  it('the backup and every column of an open game hold its seed in no form: nothing in them computes a draw', async () => {
    await endCurrent(h.U1);
    game = await openGame(t, h.U1, { numbers: [5, 23, 42, 77, 91], end: 100 });
    const backup = await backupBytes();
    seed = await seedOf(t, game);
    const seedBytes = Buffer.from(seed, 'hex');
    expect(seedBytes).toHaveLength(32);
    for (const bytes of backup) {
      expect(bytes.length).toBeGreaterThan(1000);
      expect(bytes.indexOf(seedBytes)).toBe(-1);
      expect(bytes.indexOf(Buffer.from(seed, 'latin1'))).toBe(-1);
      expect(bytes.indexOf(Buffer.from(seed.toUpperCase(), 'latin1'))).toBe(-1);
    }
    const [row] = await queryRows<{ text: string; seed: Uint8Array }>(
      t.database.db,
      sql`SELECT row_to_json(r)::text AS text, seed FROM game_rounds r WHERE id = ${game.id}`,
    );
    expect(row?.text.toLowerCase()).not.toContain(seed);
    expect(Buffer.from(row?.seed ?? []).indexOf(seedBytes)).toBe(-1);
    // Sealed for this game under SEED_KEY, which no backup holds: a guessed key opens nothing.
    expect(() =>
      new SeedBox('a key that is not the server’s, 32+ chars').open(game.code, row?.seed ?? new Uint8Array()),
    ).toThrow();
  });

  it('with the seed too, the draws depend on R, which the beacon refuses to sign before its time', async () => {
    const waiting = await freeze(t, h.U1.token, game.id);
    const R = waiting.waitingForRound;
    const [row] = await queryRows<{ digest: string }>(
      t.database.db,
      sql`SELECT entries_digest AS digest FROM game_rounds WHERE id = ${game.id}`,
    );
    const digest = row?.digest ?? '';
    // What the holder of the seed and the database can compute now: the sequence for any round
    // that exists (L, before R, was the newest at the freeze), or none at all. R itself is refused.
    const newest = await fetch(`${beacon.url}/${beacon.chain.chainHash}/public/latest`);
    expect((await newest.json()) as { round: number }).toMatchObject({ round: waiting.game.beacon?.latestRound });
    expect(waiting.game.beacon?.latestRound).toBeLessThan(R);
    const refused = await fetch(`${beacon.url}/${beacon.chain.chainHash}/public/${R}`);
    expect(refused.status).toBe(425);
    await refused.body?.cancel();
    const guesses = [
      await drawSequence(seed, digest, game, 3, beacon.sign(R - 1).randomness),
      await drawSequence(seed, digest, game, 3, beacon.sign(R - 2).randomness),
      await drawSequence(seed, digest, game, 3),
    ];
    const settled = await drawAll(t, h.U1, waiting.game);
    const real = settled.draws.map((d) => d.number);
    expect(real).toEqual(await drawSequence(seed, digest, game, 3, beacon.sign(R).randomness));
    // Three numbers of 1–100 in order: another round's randomness gives the same with probability
    // 1 / (100 × 99 × 98), about one in a million.
    for (const guess of guesses) expect(guess).not.toEqual(real);
    expect(settled.serverSeed).toBe(seed);
  });
});

/**
 * A backup as `npm run backup` takes it, as bytes to search: PGlite's gzipped data directory and
 * the directory's files unzipped; pg_dump's custom format and the SQL pg_restore makes of it.
 */
async function backupBytes(): Promise<Buffer[]> {
  if (t.database.dump) {
    const file = Buffer.from(await (await t.database.dump()).arrayBuffer());
    return [file, gunzipSync(file)];
  }
  const dir = mkdtempSync(join(tmpdir(), 'lot-games-backup-'));
  try {
    const file = join(dir, 'backup.dump');
    await dumpPostgres(t.databaseUrl ?? '', file);
    const script = execFileSync(pgBin('pg_restore'), ['--file=-', file], { maxBuffer: 256 * 1024 * 1024 });
    expect(script.toString('utf8')).toContain('COPY public.game_rounds');
    return [readFileSync(file), script];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('every step of a game writes its audit row with it', () => {
  it('opened, each entries change, frozen, each draw, settled: one row each; a refused or waiting request none', async () => {
    await endCurrent(h.U2);
    const opened = await openGameCall(t, h.U2.token, { startRange: 1, endRange: 20, betAmount: '10' });
    expectStatus(opened, 201);
    const id = opened.json<Game>().id;
    expectStatus(await putEntries(t, h.U2.token, id, participants([1, 2, 3])), 200);
    expectStatus(await putEntries(t, h.U2.token, id, participants([2, 3, 4, 5])), 200);
    await expectNoEffect(t, () => putEntries(t, h.U2.token, id, participants([21])), 400);
    const waiting = await freeze(t, h.U2.token, id);
    await expectNoEffect(t, () => drawCall(t, h.U2.token, id, 1), 202);
    await expectNoEffect(t, () => voidCall(t, h.U2.token, id, 'no'), 403);
    passRound(t, waiting);
    const first = await drawCall(t, h.U2.token, id, 1);
    expectStatus(first, 200);
    const last = await drawCall(t, h.U2.token, id, 2);
    expectStatus(last, 200);
    const game = last.json<DrawResult>().game;
    const rows = await gameAuditOf(t, id);
    expect(rows.map((row) => row.action)).toEqual([
      'game.opened',
      'game.entries_changed',
      'game.entries_changed',
      'game.frozen',
      'game.drawn',
      'game.drawn',
      'game.settled',
    ]);
    expect(new Set(rows.map((row) => row.actor_id))).toEqual(new Set([h.U2.id]));
    expect(rows[2]?.details).toMatchObject({ count: 4, added: [4, 5], removed: [1] });
    expect(rows[3]?.details).toMatchObject({ beaconRound: waiting.waitingForRound, entries: 4, pool: '40.00' });
    expect(rows.slice(4, 6).map((row) => row.details)).toEqual(
      game.draws.map((d) => ({ code: game.code, position: d.position, number: d.number })),
    );
    expect(rows[6]?.details).toMatchObject({
      saleId: game.saleId,
      numbers: game.draws.map((d) => d.number),
      pool: '40.00',
    });
    // The last draw and the settlement: one statement, one transaction (one now()), with the game's end.
    const times = await timesOf(id);
    expect(rows[5]?.at).toBe(times.ended_at);
    expect(rows[6]?.at).toBe(times.ended_at);
    expect(rows[3]?.at).toBe(times.held_at);
  });

  it('the audit trail verifies after every game so far (npm run audit:verify)', async () => {
    const report = await verifyAudit(t.database.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    expect(report.rows).toBeGreaterThan(50);
  });
});

describe('void', () => {
  it('before the freeze the game is discarded: nothing was held, nothing changes hands', async () => {
    await fund(t, h.U5.id, '0.01');
    const game = await openGame(t, h.U5, { numbers: [1, 2] });
    const before = await snapshot(t);
    const response = await voidCall(t, h.U5.token, game.id, 'Reset before the first draw');
    expectStatus(response, 200);
    expect(response.json<Game>()).toMatchObject({ status: 'discarded', voidReason: 'Reset before the first draw' });
    const after = await snapshot(t);
    // Only the game's row and its one audit row changed.
    expect({ ...after, rounds: '', audit: 0 }).toEqual({ ...before, rounds: '', audit: 0 });
    expect(after.audit).toBe(before.audit + 1);
  });

  it('a reason is required', async () => {
    const game = await openGame(t, h.U5, { numbers: [1, 2] });
    for (const reason of [undefined, '', '   ', 5]) {
      const response = await expectNoEffect(t, () => voidCall(t, h.U5.token, game.id, reason), 400);
      if (reason !== 5) expect(response.json().message).toBe('A reason is required');
    }
    await freeze(t, h.U5.token, game.id);
    for (const reason of [undefined, '  '])
      await expectNoEffect(t, () => voidCall(t, h.A3.token, game.id, reason), 400);
    expectStatus(await voidCall(t, h.A3.token, game.id, 'cleanup'), 200);
  });

  it('after a draw the shop’s void is 403; its agent voids: the pool comes back, the game stays on record for the upline', async () => {
    const game = await openGame(t, h.U5, { numbers: [2, 4, 6] });
    const before = await balanceOf(t, h.U5.id);
    expectStatus(await drawPosition(t, h.U5.token, game.id, 1), 200);
    expect(await balanceOf(t, h.U5.id)).toBe(before - 3000);
    await expectNoEffect(t, () => voidCall(t, h.U5.token, game.id, 'Customer dispute'), 403, {
      message: SERVER_MESSAGES.operatorCannotVoidFrozen,
    });
    const response = await voidCall(t, h.A3.token, game.id, 'Customer dispute');
    expectStatus(response, 200);
    const voided = response.json<Game>();
    expect(voided).toMatchObject({
      status: 'voided',
      voidReason: 'Customer dispute',
      voidedBy: { id: h.A3.id, role: 'agent' },
      serverSeed: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(voided.draws).toHaveLength(1);
    expect(voided.unplayedDraws).toHaveLength(1);
    expect(await balanceOf(t, h.U5.id)).toBe(before);
    expect(await ledgerRow(voided.transactionId)).toMatchObject({ status: 'voided', amount: '3000' });
    expect((await checkLedger(t.database.db)).ok).toBe(true);

    // Its upline (A3, S2) and the admin see it among the voided games, and so does its shop; nobody else does.
    // The row says what its draw had announced (the Void dialog's warning): the first draw's winner, if any.
    const first = voided.draws[0];
    const announced = first?.winner
      ? { winnersAnnounced: 1, prizesAnnounced: first.prizeAmount }
      : { winnersAnnounced: 0, prizesAnnounced: '0.00' };
    for (const member of [h.A3, h.S2, h.admin, h.U5]) {
      const list = await get(member.token, '/api/games?status=voided');
      expectStatus(list, 200);
      const row = list.json<GameSummary[]>().find((g) => g.id === game.id);
      expect(row).toMatchObject({
        status: 'voided',
        protocol: 'LOT-DRAW-2',
        drawsCount: 1,
        ...announced,
        entriesCount: 3,
        voidReason: 'Customer dispute',
        voidedBy: { id: h.A3.id },
      });
      expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    }
    for (const member of [h.A1, h.S1, h.U1]) {
      const list = await get(member.token, '/api/games?status=voided');
      expect(list.json<GameSummary[]>().some((g) => g.id === game.id)).toBe(false);
    }
    // The proof of a voided game reveals its seed, says who voided it (masked), and checks out.
    const proof = await proofOf(t, game.code);
    expect(proof.voidedBy).toEqual({ role: 'agent', name: 'A*** T***' });
    expect((await verifyProof(proof, pins)).verdict).toBe('verified');
  });

  it('the Voided games tab: its totals, its CSV and its Excel are the voided games and none of the played', async () => {
    const settled = await drawAll(t, h.U5, await openGame(t, h.U5, { numbers: [7, 8] }));
    expect(settled.status).toBe('settled');
    const all = (await get(h.U5.token, '/api/games?status=voided')).json<GameSummary[]>();
    expect(all.length).toBeGreaterThanOrEqual(1);
    const pools = all.reduce((sum, g) => sum + Math.round(Number(g.pool) * 100), 0);
    const page = await get(h.U5.token, '/api/games?status=voided&limit=1');
    expect(page.headers['x-total-count']).toBe(String(all.length));
    expect(page.headers['x-total-pool']).toBe((pools / 100).toFixed(2));

    const csv = await get(h.U5.token, '/api/games/export?status=voided&format=csv');
    expectStatus(csv, 200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="games-voided-until-[\d-]+\.csv"$/);
    const [header, ...rows] = csvRows(csv.body);
    expect(header?.slice(0, 3)).toEqual(['Date', 'Game no.', 'Game code']);
    // A code that starts with '-' is kept as text with a leading ' (lib/export.ts, neutralised).
    expect(rows.map((row) => row[2])).toEqual(all.map((g) => neutralised(g.code)));
    expect(rows.every((row) => row[header?.indexOf('Status') ?? -1] === 'voided')).toBe(true);
    expect(rows.map((row) => row[2])).not.toContain(neutralised(settled.code));
    expect(rows[0]?.[header?.indexOf('Reason') ?? -1]).toBe(all[0]?.voidReason);

    const excel = await get(h.U5.token, '/api/games/export?status=voided&format=xlsx');
    expectStatus(excel, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(all.length + 1);
    // Neutralised as in the CSV: a code may start with '-' (one in 64).
    expect(sheet?.getRow(2).getCell(3).value).toBe(neutralised(all[0]?.code ?? ''));
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

describe('ledger:check after frozen, finished and voided games', () => {
  it('every cent is accounted for, a game still frozen included', async () => {
    const game = await openGame(t, h.U5, { numbers: [3, 6, 9] });
    await freeze(t, h.U5.token, game.id);
    const [counts] = await queryRows<{ drawing: number; settled: number; voided: number }>(
      t.database.db,
      sql`SELECT count(*) FILTER (WHERE status = 'drawing')::int AS drawing,
        count(*) FILTER (WHERE status = 'settled')::int AS settled,
        count(*) FILTER (WHERE status = 'voided')::int AS voided FROM game_rounds`,
    );
    expect(counts?.drawing).toBeGreaterThanOrEqual(1);
    expect(counts?.settled).toBeGreaterThanOrEqual(5);
    expect(counts?.voided).toBeGreaterThanOrEqual(5);
    const report = await checkLedger(t.database.db);
    expect(report).toMatchObject({ ok: true, mismatches: [], negative: 0, holds: 0, rollups: 0 });
    expect(report.totals.balances).toBe(report.totals.expected);
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
  it('deleting a player with a game opened but not frozen ends that game as discarded', async () => {
    const leaving = await createMember(t, {
      username: 'user_leaving',
      fullName: 'User Leaving',
      role: 'user',
      parentId: h.A1.id,
    });
    const game = await openGame(t, leaving, { numbers: [1, 2] });
    expectStatus(await t.request(h.A1.token, { method: 'DELETE', url: `/api/users/${leaving.id}` }), 200);
    const read = await t.request(h.A1.token, { method: 'GET', url: `/api/games/${game.id}` });
    expect(read.json<Game>()).toMatchObject({
      status: 'discarded',
      voidReason: 'The player was deleted',
      voidedBy: { id: h.A1.id },
    });
  });
});
