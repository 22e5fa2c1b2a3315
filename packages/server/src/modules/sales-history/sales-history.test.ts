import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { queryRows } from '../../db/client.ts';
import { checkLedger } from '../balance/ledger.ts';
import {
  configureWinners,
  expectNoEffect,
  gamePayload,
  postGame,
  snapshot,
  type GamePayload,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { balanceOf, createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * POST /api/sales-history settles a finished game (DESIGN.md section 2): the server recomputes it,
 * takes exactly the pool and writes the game, its winners and one ledger row, or changes nothing.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  // The brief's working example: U1 has its own 50% / 30% positions.
  await configureWinners(t, h.U1.id, [
    { percent: '50', position: 1 },
    { percent: '30', position: 2 },
  ]);
});
afterAll(async () => {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  await t.close();
});

const FORBIDDEN = { code: 'FORBIDDEN' };
const UNPROCESSABLE = { code: 'UNPROCESSABLE' };

/** The working example, verbatim: 3 players × 10.00, drawn 7 (B) then 4 (nobody). */
const example = (userId: number) => ({
  userId,
  startRange: 1,
  endRange: 20,
  betAmount: '10.00',
  totalPrize: '15.00',
  commission: '15.00',
  selectedNumbersCount: 3,
  winningNumbersCount: 1,
  gameData: {
    selectedNumbers: [
      { number: 3, name: 'A', phoneNumber: '1' },
      { number: 7, name: 'B', phoneNumber: '2' },
      { number: 9, name: 'C', phoneNumber: '3' },
    ],
    winningNumbers: [7, 4],
    drawCount: 2,
    totalPrizePool: '30.00',
    startRange: 1,
    endRange: 20,
    betAmount: '10.00',
  },
  winners: [{ number: 7, name: 'B', phoneNumber: '2', position: 1, prizeAmount: '15.00' }],
});
type Example = ReturnType<typeof example>;

/** Tops a user's balance up to exactly `amount` cents (through the API, so the ledger stays true). */
async function setBalance(userId: number, amount: number) {
  const have = await balanceOf(t, userId);
  if (have > amount) throw new Error(`balance of ${userId} is already above ${amount}: ${have}`);
  if (have < amount) await fund(t, userId, ((amount - have) / 100).toFixed(2));
}

async function gameRows(userId: number) {
  const rows = await queryRows<Record<string, unknown>>(
    t.database.db,
    sql`SELECT id, user_id, parent_id, superagent_id, start_range, end_range, bet_amount::text AS bet,
               pool::text AS pool, total_prize::text AS total_prize, commission::text AS commission,
               selected_count, winners_count, transaction_id
        FROM games WHERE user_id = ${userId} ORDER BY id`,
  );
  return rows;
}

async function transactionRow(id: number) {
  const rows = await queryRows<Record<string, unknown>>(
    t.database.db,
    sql`SELECT type, user_id, receiver_id, amount::text AS amount, status, description FROM transactions WHERE id = ${id}`,
  );
  return rows[0];
}

async function winnerRows(gameId: number) {
  const rows = await queryRows<Record<string, unknown>>(
    t.database.db,
    sql`SELECT number, name, phone_number, position, prize_amount::text AS prize FROM game_winners
        WHERE game_id = ${gameId} ORDER BY position`,
  );
  return rows;
}

describe('settling the working example', () => {
  let first: LightMyRequestResponse;

  it('201: takes exactly the pool and writes one game, its winner and one ledger row', async () => {
    await setBalance(h.U1.id, 10_000);
    const before = await snapshot(t);
    first = await postGame(t, h.U1.token, example(h.U1.id), 'g1');
    expectStatus(first, 201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const sale = first.json<SaleDetail>();
    expect(sale).toEqual({
      id: expect.any(Number),
      userId: h.U1.id,
      createdAt: expect.any(String),
      startRange: 1,
      endRange: 20,
      betAmount: '10.00',
      totalPrize: '15.00',
      commission: '15.00',
      selectedNumbersCount: 3,
      winningNumbersCount: 1,
      user: {
        id: h.U1.id,
        username: h.U1.username,
        fullName: h.U1.fullName,
        parent: { id: h.A1.id, fullName: h.A1.fullName },
      },
      gameData: example(h.U1.id).gameData,
      winners: [{ id: expect.any(Number), number: 7, name: 'B', phoneNumber: '2', position: 1, prizeAmount: '15.00' }],
      transactionId: expect.any(Number),
    });

    expect(await balanceOf(t, h.U1.id)).toBe(7000);
    const after = await snapshot(t);
    expect(after).toEqual({
      ...before,
      balances: { ...before.balances, [h.U1.id]: 7000 },
      transactions: before.transactions + 1,
      keys: before.keys + 1,
      games: before.games + 1,
      gameWinners: before.gameWinners + 1,
    });
    expect(await gameRows(h.U1.id)).toEqual([
      {
        id: sale.id,
        user_id: h.U1.id,
        parent_id: h.A1.id,
        superagent_id: h.S1.id,
        start_range: 1,
        end_range: 20,
        bet: '1000',
        pool: '3000',
        total_prize: '1500',
        commission: '1500',
        selected_count: 3,
        winners_count: 1,
        transaction_id: sale.transactionId,
      },
    ]);
    expect(await winnerRows(sale.id)).toEqual([
      { number: 7, name: 'B', phone_number: '2', position: 1, prize: '1500' },
    ]);
    expect(await transactionRow(sale.transactionId)).toEqual({
      type: 'game',
      user_id: h.U1.id,
      receiver_id: null,
      amount: '3000',
      status: 'completed',
      description: 'Game played with 3 numbers, 1 winners',
    });
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('GET /api/sales-history/{id} answers the same record', async () => {
    const sale = first.json<SaleDetail>();
    const response = await t.request(h.U1.token, { method: 'GET', url: `/api/sales-history/${sale.id}` });
    expectStatus(response, 200);
    expect(response.json()).toEqual(sale);
  });

  it('the transaction shows in the player’s transactions with the spec’s description', async () => {
    const response = await t.request(h.U1.token, { method: 'GET', url: '/api/transactions' });
    expectStatus(response, 200);
    const rows = response.json<{ id: number; description?: string }[]>();
    const row = rows.find((r) => r.id === first.json<SaleDetail>().transactionId);
    expect(row).toBeDefined();
    expect(row?.description).toBe('Game played with 3 numbers, 1 winners');
  });

  it('a replay with the same key answers the first record (200, Idempotent-Replayed) and changes nothing', async () => {
    for (let i = 0; i < 2; i++) {
      const again = await expectNoEffect(t, () => postGame(t, h.U1.token, example(h.U1.id), 'g1'), 200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    // The same game written differently (numbers for amounts) is the same request.
    const numeric = { ...example(h.U1.id), betAmount: 10, totalPrize: 15, commission: 15 };
    const replay = await expectNoEffect(t, () => postGame(t, h.U1.token, numeric, 'g1'), 200);
    expect(replay.json()).toEqual(first.json());
  });

  it('the same key with a different game is 422 and changes nothing', async () => {
    const other = gamePayload(h.U1.id, { numbers: [3, 7, 9], drawn: [3, 4], percents: ['50', '30'] });
    await expectNoEffect(t, () => postGame(t, h.U1.token, other, 'g1'), 422, {
      code: 'UNPROCESSABLE',
      message: 'This Idempotency-Key was already used for a different request',
    });
  });

  it('without a key the same game is a new game', async () => {
    const before = await snapshot(t);
    expectStatus(await postGame(t, h.U1.token, example(h.U1.id)), 201);
    expect(await balanceOf(t, h.U1.id)).toBe(before.balances[h.U1.id]! - 3000);
    expect((await snapshot(t)).games).toBe(before.games + 1);
  });

  it('5 concurrent posts with one key settle once and all answer the same record', async () => {
    await setBalance(h.U1.id, 10_000);
    const before = await snapshot(t);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => postGame(t, h.U1.token, example(h.U1.id), 'burst')),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses, responses.map((r) => r.body).join('\n')).toEqual([200, 200, 200, 200, 201]);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    const ids = new Set(responses.map((r) => r.json<SaleDetail>().id));
    expect(ids.size).toBe(1);
    for (const response of responses) expect(response.json()).toEqual(responses[0]?.json());
    expect(await snapshot(t)).toEqual({
      ...before,
      balances: { ...before.balances, [h.U1.id]: 7000 },
      transactions: before.transactions + 1,
      keys: before.keys + 1,
      games: before.games + 1,
      gameWinners: before.gameWinners + 1,
    });
  });

  it('5 concurrent different games are each settled and take 5 pools', async () => {
    await setBalance(h.U1.id, 15_000);
    const before = await snapshot(t);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => postGame(t, h.U1.token, example(h.U1.id), `many-${i}`)),
    );
    for (const response of responses) expectStatus(response, 201);
    expect(await balanceOf(t, h.U1.id)).toBe(0);
    const after = await snapshot(t);
    expect(after.games).toBe(before.games + 5);
    expect(after.transactions).toBe(before.transactions + 5);
    // The sixth has nothing left to pay with.
    await expectNoEffect(t, () => postGame(t, h.U1.token, example(h.U1.id), 'many-5'), 422, {
      message: MESSAGES.insufficientBalance,
    });
  });
});

describe('a record that does not add up is 422 and changes nothing', () => {
  beforeAll(() => setBalance(h.U1.id, 100_000));

  const refused = (payload: unknown, body: Record<string, unknown> = UNPROCESSABLE) =>
    expectNoEffect(t, () => postGame(t, h.U1.token, payload, `bad-${Math.random()}`), 422, body);

  const mutate = (change: (game: Example) => void): Example => {
    const game = structuredClone(example(h.U1.id));
    change(game);
    return game;
  };

  it('is accepted unchanged (the control)', async () => {
    expectStatus(await postGame(t, h.U1.token, example(h.U1.id)), 201);
  });

  it.each<[string, (game: Example) => void]>([
    ['a wrong commission', (g) => (g.commission = '14.99')],
    ['a negative commission', (g) => (g.commission = '-15.00')],
    ['a commission of the whole pool', (g) => (g.commission = '30.00')],
    ['a wrong totalPrize', (g) => (g.totalPrize = '15.01')],
    ['a zero totalPrize', (g) => (g.totalPrize = '0.00')],
    ['a wrong pool', (g) => (g.gameData.totalPrizePool = '31.00')],
    ['a pool that ignores the bet', (g) => (g.gameData.totalPrizePool = '3.00')],
    ['a winner with a wrong prize', (g) => (g.winners[0]!.prizeAmount = '14.00')],
    ['a winner with a wrong name', (g) => (g.winners[0]!.name = 'Z')],
    ['a winner with a wrong phone', (g) => (g.winners[0]!.phoneNumber = '9')],
    ['a winner on the wrong position', (g) => (g.winners[0]!.position = 2)],
    ['a winner with a number nobody drew', (g) => (g.winners[0]!.number = 3)],
    ['a missing winner', (g) => (g.winners = [])],
    [
      'an extra winner',
      (g) => g.winners.push({ number: 3, name: 'A', phoneNumber: '1', position: 2, prizeAmount: '0.00' }),
    ],
    [
      'a duplicated winner',
      (g) => g.winners.push({ number: 7, name: 'B', phoneNumber: '2', position: 1, prizeAmount: '15.00' }),
    ],
    ['a wrong winningNumbersCount', (g) => (g.winningNumbersCount = 2)],
    ['a wrong selectedNumbersCount', (g) => (g.selectedNumbersCount = 4)],
    [
      'a drawn count below the configured positions',
      (g) => ((g.gameData.winningNumbers = [7]), (g.gameData.drawCount = 1)),
    ],
    [
      'a drawn count above the configured positions',
      (g) => ((g.gameData.winningNumbers = [7, 4, 5]), (g.gameData.drawCount = 3)),
    ],
    ['a drawCount that disagrees with the draw', (g) => (g.gameData.drawCount = 1)],
    ['a drawn number outside the range', (g) => (g.gameData.winningNumbers = [7, 21])],
    ['a selected number outside the range', (g) => (g.gameData.selectedNumbers[0]!.number = 21)],
    [
      'a selected number below the start',
      (g) => {
        g.startRange = 5;
        g.gameData.startRange = 5;
      },
    ],
    ['a duplicated selected number', (g) => (g.gameData.selectedNumbers[0]!.number = 9)],
    ['game data with another range', (g) => (g.gameData.endRange = 30)],
    ['game data with another bet', (g) => (g.gameData.betAmount = '5.00')],
  ])('%s', async (_label, change) => {
    await refused(mutate(change));
  });

  it('a duplicated selected number with counts and pool made to match it', async () => {
    const game = gamePayload(h.U1.id, { numbers: [3, 3, 9], drawn: [3, 4], percents: ['50', '30'] });
    await refused(game, { ...UNPROCESSABLE, message: expect.stringContaining('distinct') });
  });

  it('a player with too little balance: "Insufficient balance"', async () => {
    await configureWinners(t, h.U2.id, [
      { percent: '50', position: 1 },
      { percent: '30', position: 2 },
    ]);
    await setBalance(h.U2.id, 2999);
    await expectNoEffect(t, () => postGame(t, h.U2.token, example(h.U2.id)), 422, {
      code: 'UNPROCESSABLE',
      message: MESSAGES.insufficientBalance,
      fieldErrors: { betAmount: MESSAGES.insufficientBalance },
    });
    await fund(t, h.U2.id, '0.01');
    const settled = await postGame(t, h.U2.token, example(h.U2.id));
    expectStatus(settled, 201);
    expect(await balanceOf(t, h.U2.id)).toBe(0);
  });

  it('a player with no active winner settings and no global ones: "No winner settings configured!"', async () => {
    await setBalance(h.U3.id, 10_000);
    await configureWinners(t, h.U3.id, [{ percent: '50', position: 1, isActive: false }]);
    await expectNoEffect(t, () => postGame(t, h.U3.token, example(h.U3.id)), 422, {
      code: 'UNPROCESSABLE',
      message: MESSAGES.noWinnerSettings,
    });
  });

  it('settings that pay out more than the pool', async () => {
    await setBalance(h.U4.id, 10_000);
    await configureWinners(t, h.U4.id, [
      { percent: '60', position: 1 },
      { percent: '50', position: 2 },
    ]);
    // The client's honest record: prizes 18.00 + 15.00 of a 30.00 pool, commission -3.00.
    const game = gamePayload(h.U4.id, { numbers: [3, 7, 9], drawn: [7, 3], percents: ['60', '50'] });
    expect(game).toMatchObject({ totalPrize: '33.00', commission: '-3.00' });
    const overpay = { code: 'UNPROCESSABLE', message: 'The winner settings pay out more than 100% of the pool' };
    await expectNoEffect(t, () => postGame(t, h.U4.token, game), 422, overpay);
    // Capping the prizes to the pool does not make it add up either.
    const capped = { ...game, totalPrize: '30.00', commission: '0.00' };
    await expectNoEffect(t, () => postGame(t, h.U4.token, capped), 422, overpay);
    // With only one of them won the game pays 60% and is fine.
    const one = gamePayload(h.U4.id, { numbers: [3, 7, 9], drawn: [7, 4], percents: ['60', '50'] });
    expectStatus(await postGame(t, h.U4.token, one), 201);
    expect(await balanceOf(t, h.U4.id)).toBe(7000);
  });
});

describe('bad input is 400 and changes nothing', () => {
  beforeAll(() => setBalance(h.U1.id, 100_000));

  const bad = (change: (game: Example) => void) => {
    const game = structuredClone(example(h.U1.id));
    change(game);
    return expectNoEffect(t, () => postGame(t, h.U1.token, game), 400, { code: 'VALIDATION_ERROR' });
  };

  it.each<[string, (game: Example) => void, Record<string, string>?]>([
    [
      'start equal to end',
      (g) => {
        g.startRange = 20;
        g.gameData.startRange = 20;
      },
      { endRange: MESSAGES.rangeEndInvalid },
    ],
    [
      'start above end',
      (g) => {
        g.startRange = 21;
        g.gameData.startRange = 21;
      },
    ],
    ['start 0', (g) => (g.startRange = 0), { startRange: MESSAGES.rangeStartInvalid }],
    ['end above 100', (g) => (g.endRange = 101), { endRange: MESSAGES.rangeEndInvalid }],
    ['a fractional end', (g) => (g.endRange = 20.5), { endRange: MESSAGES.rangeEndInvalid }],
    ['bet 0.5', (g) => (g.betAmount = '0.50'), { betAmount: MESSAGES.betInvalid }],
    ['bet 0', (g) => (g.betAmount = '0'), { betAmount: MESSAGES.betInvalid }],
    ['bet with three decimals', (g) => (g.betAmount = '10.001'), { betAmount: MESSAGES.betInvalid }],
    ['bet as text', (g) => (g.betAmount = 'ten'), { betAmount: MESSAGES.betInvalid }],
    [
      'a participant without a name',
      (g) => delete (g.gameData.selectedNumbers[0] as { name?: string }).name,
      { 'gameData.selectedNumbers.0.name': MESSAGES.participantNameRequired },
    ],
    [
      'a participant with a blank name',
      (g) => (g.gameData.selectedNumbers[1]!.name = '  '),
      { 'gameData.selectedNumbers.1.name': MESSAGES.participantNameRequired },
    ],
    [
      'a participant without a phone',
      (g) => delete (g.gameData.selectedNumbers[2] as { phoneNumber?: string }).phoneNumber,
      { 'gameData.selectedNumbers.2.phoneNumber': MESSAGES.participantPhoneRequired },
    ],
    [
      'a participant with an empty phone',
      (g) => (g.gameData.selectedNumbers[0]!.phoneNumber = ''),
      { 'gameData.selectedNumbers.0.phoneNumber': MESSAGES.participantPhoneRequired },
    ],
    [
      'no participants',
      (g) => (g.gameData.selectedNumbers = []),
      { 'gameData.selectedNumbers': MESSAGES.noNumbersSelected },
    ],
    ['a selected number 0', (g) => (g.gameData.selectedNumbers[0]!.number = 0)],
    ['a selected number 101', (g) => (g.gameData.selectedNumbers[0]!.number = 101)],
    ['a commission as text', (g) => (g.commission = 'some')],
    ['a commission with three decimals', (g) => (g.commission = '-1.001')],
    ['a prize with three decimals', (g) => (g.winners[0]!.prizeAmount = '15.001')],
    ['an unknown field', (g) => Object.assign(g, { balance: '1000.00' })],
    ['no userId', (g) => delete (g as { userId?: number }).userId],
  ])('%s', async (_label, change, fieldErrors) => {
    const response = await bad(change);
    if (fieldErrors) expect(response.json<{ fieldErrors: object }>().fieldErrors).toMatchObject(fieldErrors);
  });

  it('a bad Idempotency-Key is 400', async () => {
    await expectNoEffect(t, () => postGame(t, h.U1.token, example(h.U1.id), 'two words'), 400, {
      code: 'BAD_REQUEST',
    });
  });
});

describe('who may settle a game (DESIGN.md section 3: own games, role user only)', () => {
  beforeAll(() => setBalance(h.U1.id, 100_000));

  it('needs a token', async () => {
    await expectNoEffect(t, () => postGame(t, '', example(h.U1.id)), 401);
  });

  it('admin, superagent and agent are 403, for their own id, a player’s id or a bad body', async () => {
    for (const member of [h.admin, h.S1, h.A1]) {
      for (const payload of [example(member.id), example(h.U1.id), { nonsense: true }]) {
        await expectNoEffect(t, () => postGame(t, member.token, payload, `role-${member.id}`), 403, FORBIDDEN);
      }
    }
  });

  it("a user posting someone else's game is 403", async () => {
    await setBalance(h.U2.id, 10_000);
    for (const userId of [h.U1.id, h.U5.id, h.A1.id, 999_999]) {
      await expectNoEffect(t, () => postGame(t, h.U2.token, example(userId)), 403, FORBIDDEN);
    }
  });
});

describe('prize rounding (DESIGN.md section 2: floor per prize, commission takes the rest)', () => {
  let game: GamePayload;

  beforeAll(async () => {
    await configureWinners(t, h.U5.id, [
      { percent: '33.33', position: 1 },
      { percent: '33.33', position: 2 },
      { percent: '33.33', position: 3 },
    ]);
    await setBalance(h.U5.id, 1000);
    game = gamePayload(h.U5.id, {
      numbers: [1, 2, 3, 4, 5, 6, 7],
      drawn: [2, 5, 7],
      percents: ['33.33', '33.33', '33.33'],
      bet: '1.00',
      end: 10,
    });
  });

  it('7 × 1.00 with three 33.33% positions: 2.33 each, commission 0.01', async () => {
    expect(game.winners.map((w) => w.prizeAmount)).toEqual(['2.33', '2.33', '2.33']);
    expect(game).toMatchObject({ totalPrize: '6.99', commission: '0.01' });
    const response = await postGame(t, h.U5.token, game);
    expectStatus(response, 201);
    const sale = response.json<SaleDetail>();
    expect(sale).toMatchObject({ totalPrize: '6.99', commission: '0.01', winningNumbersCount: 3 });
    expect(sale.gameData.totalPrizePool).toBe('7.00');
    expect(sale.winners.map((w) => [w.position, w.number, w.prizeAmount])).toEqual([
      [1, 2, '2.33'],
      [2, 5, '2.33'],
      [3, 7, '2.33'],
    ]);
    const [row] = await gameRows(h.U5.id);
    expect(row).toMatchObject({ pool: '700', total_prize: '699', commission: '1' });
    const prizes = (await winnerRows(sale.id)).reduce((sum, w) => sum + Number(w.prize), 0);
    expect(prizes + Number(row?.commission)).toBe(700);
    expect(await balanceOf(t, h.U5.id)).toBe(300);
    expect((await transactionRow(sale.transactionId))?.description).toBe('Game played with 7 numbers, 3 winners');
  });

  it('rounding a prize up is refused', async () => {
    await setBalance(h.U5.id, 1000);
    const up = structuredClone(game);
    up.winners.forEach((w) => (w.prizeAmount = '2.34'));
    up.totalPrize = '7.02';
    up.commission = '-0.02';
    await expectNoEffect(t, () => postGame(t, h.U5.token, up), 422, UNPROCESSABLE);
    up.totalPrize = '7.00';
    up.commission = '0.00';
    up.winners[2]!.prizeAmount = '2.32';
    await expectNoEffect(t, () => postGame(t, h.U5.token, up), 422, UNPROCESSABLE);
  });

  it('a draw nobody selected pays nothing: the commission is the whole pool', async () => {
    const none = gamePayload(h.U5.id, {
      numbers: [1, 2],
      drawn: [8, 9, 10],
      percents: ['33.33', '33.33', '33.33'],
      bet: '1.00',
      end: 10,
    });
    expect(none).toMatchObject({ winners: [], totalPrize: '0.00', commission: '2.00', winningNumbersCount: 0 });
    const response = await postGame(t, h.U5.token, none);
    expectStatus(response, 201);
    const sale = response.json<SaleDetail>();
    expect(sale.winners).toEqual([]);
    expect((await transactionRow(sale.transactionId))?.description).toBe('Game played with 2 numbers, 0 winners');
  });
});

describe('a player without own settings plays with the active global ones', () => {
  it('uses the globals by position and ignores inactive ones', async () => {
    await configureWinners(t, null, [
      { percent: '20', position: 2 },
      { percent: '70', position: 1 },
      { percent: '90', position: 3, isActive: false },
    ]);
    await setBalance(h.U3.id, 10_000);
    // U3's only own setting is inactive, so the globals apply: 70% then 20%, two positions.
    const game = gamePayload(h.U3.id, { numbers: [1, 2, 3, 4], drawn: [4, 1], percents: ['70', '20'], bet: '2.50' });
    expect(game).toMatchObject({ totalPrize: '9.00', commission: '1.00' });
    const response = await postGame(t, h.U3.token, game);
    expectStatus(response, 201);
    expect(response.json<SaleDetail>().winners.map((w) => [w.position, w.number, w.prizeAmount])).toEqual([
      [1, 4, '7.00'],
      [2, 1, '2.00'],
    ]);
    expect(await balanceOf(t, h.U3.id)).toBe(9000);
    // Three drawn numbers (as if the inactive third position counted) do not add up.
    const three = gamePayload(h.U3.id, { numbers: [1, 2], drawn: [1, 2, 3], percents: ['70', '20', '90'] });
    await expectNoEffect(t, () => postGame(t, h.U3.token, three), 422, UNPROCESSABLE);
  });
});
