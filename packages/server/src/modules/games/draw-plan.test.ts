import { describe, expect, it } from 'vitest';
import { AppError } from '@lot/domain/errors';
import { FREEZE_REFUSED, SERVER_MESSAGES } from '@lot/domain/server-messages';
import { MESSAGES } from '@lot/domain/messages';
import type { Caller } from '../../lib/caller.ts';
import { callers } from '../../test/sql-snapshots.ts';
import { checkDraw, planDraw, type DrawPlan, type DrawRequest } from './draw-plan.ts';
import type { Round } from './games.repository.ts';

/**
 * The draw's plan (decision 066), one case per branch, without a database: the game as read, the
 * request and the facts it gathered go in; the answer — replay, refusal, wait or the write with its
 * audit rows and settlement — comes out. The statement each write becomes is in
 * games.repository.test.ts's snapshots; games.test.ts runs them on the databases.
 */

const shop: Caller = { ...callers.user, address: '203.0.113.9' };
const agent = callers.agent;
const pin = { chainHash: 'c'.repeat(64), publicKey: 'p'.repeat(192), genesisTime: 1_700_000_000, period: 3 };
const now = Date.parse('2026-11-26T12:00:00.000Z');
const digest = 'd'.repeat(64);
const entries = [
  { number: 4, name: 'Ana Lopez', phoneNumber: '555-0104', nonce: '0123456789abcdef', canonical: true },
  { number: 7, name: 'Ben Cruz', phoneNumber: '555-0107', nonce: 'fedcba9876543210', canonical: true },
];

/** An open LOT-DRAW-1 game of the shop: two entries of 10.00, two prizes (50% and 30%). */
const open: Round = {
  id: 11,
  code: 'c0de',
  userId: shop.id,
  number: 1,
  parentId: agent.id,
  superagentId: callers.superagent.id,
  shiftId: null,
  status: 'open',
  startRange: 1,
  endRange: 20,
  betAmount: 1000,
  prizes: [
    { position: 1, percentBps: 5000, name: 'First' },
    { position: 2, percentBps: 3000, name: 'Second' },
  ],
  seed: Buffer.alloc(4),
  seedSealed: true,
  commitment: 'e'.repeat(64),
  protocol: 'LOT-DRAW-1',
  beacon: null,
  entries,
  entriesDigest: null,
  frozenAt: null,
  beaconRound: null,
  beaconLatestRound: null,
  beaconSignature: null,
  beaconRandomness: null,
  logIndex: null,
  logCheckpoint: null,
  draws: [],
  transactionId: null,
  saleId: null,
  voidReason: null,
  voidedBy: null,
  createdAt: new Date(now - 60_000),
  endedAt: null,
};
const frozenAt = new Date(now - 10_000);
/** The same game frozen, position 1 drawn, the pool held by ledger row 21. */
const drawing: Round = {
  ...open,
  status: 'drawing',
  entriesDigest: digest,
  frozenAt,
  draws: [{ number: 7, drawnAt: frozenAt.toISOString() }],
  transactionId: 21,
};
/** A LOT-DRAW-2 game, open, and frozen waiting for round 1234 (nothing drawn). */
const open2: Round = { ...open, protocol: 'LOT-DRAW-2', beacon: pin };
const frozen2: Round = {
  ...open2,
  status: 'drawing',
  entriesDigest: digest,
  frozenAt,
  beaconRound: 1234,
  transactionId: 21,
};

const request = (position: number, caller = shop, remembered = false): DrawRequest => ({
  caller,
  position,
  remembered,
});
const refusal = (plan: DrawPlan) =>
  plan.kind === 'refuse' ? { status: plan.error.status, message: plan.error.message } : plan;
const written = (plan: DrawPlan) => {
  if (plan.kind !== 'write') throw new Error(`expected a write, got ${plan.kind}`);
  return plan;
};
const status = (code: ConstructorParameters<typeof AppError>[0]) => new AppError(code, '').status;

describe('planDraw: nothing to write', () => {
  it('a position already drawn is a replay, whoever may read the game asks', () => {
    expect(planDraw(drawing, request(1), { now })).toEqual({ kind: 'replay' });
    expect(planDraw(drawing, request(1, agent), { now })).toEqual({ kind: 'replay' });
    expect(planDraw({ ...drawing, status: 'voided' }, request(1), { now })).toEqual({ kind: 'replay' });
  });

  it.each([
    [
      'the upline starting the draw of an open game',
      open,
      request(1, agent),
      'FORBIDDEN',
      SERVER_MESSAGES.uplineCannotStart,
    ],
    [
      'every prize drawn',
      { ...drawing, draws: [...(drawing.draws as object[]), { number: 4, drawnAt: '' }] },
      request(3),
      'CONFLICT',
      MESSAGES.allWinnersDrawn,
    ],
    ['a game that ended', { ...drawing, status: 'voided' }, request(2), 'CONFLICT', 'This game has ended (voided)'],
    ['a position out of order', drawing, request(3), 'CONFLICT', 'Draw the positions in order: the next one is 2'],
    ['an open game without entries', { ...open, entries: [] }, request(1), 'UNPROCESSABLE', MESSAGES.noNumbersSelected],
  ] as const)('%s is refused', (_name, round, asked, code, message) => {
    expect(refusal(planDraw(round, asked, { now }))).toEqual({ status: status(code), message });
    expect(checkDraw(round, asked)).toEqual(planDraw(round, asked, { now }));
  });

  it.each([
    ['no relay answered a verified latest round', 'no latest round'],
    ['a relay has round R already', 'round public'],
    ["the server's clock is over a minute behind the beacon", 'clock behind'],
    ["the server's clock is over a minute ahead of the beacon", 'clock ahead'],
    ['asking the relays took over three quarters of the margin', 'too slow'],
  ] as const)('a freeze is refused when %s: 503, nothing written', (_name, reason) => {
    const facts = { now, digest, beacon: { kind: 'no freeze', reason } as const };
    expect(refusal(planDraw(open2, request(1), facts))).toEqual({
      status: status('UNAVAILABLE'),
      message: FREEZE_REFUSED[reason],
    });
  });

  it('a LOT-DRAW-2 draw before round R exists waits for it', () => {
    const notYet = { expectedAt: now + 2_000, retryAfterMs: 2_150, unreachable: false };
    const facts = { now, digest, beacon: { kind: 'not yet', round: 1234, notYet } as const };
    expect(planDraw(frozen2, request(1), facts)).toEqual({ kind: 'wait', round: 1234, notYet });
    // The upline may finish a frozen game: it waits too.
    expect(planDraw(frozen2, request(1, agent), facts)).toEqual({ kind: 'wait', round: 1234, notYet });
  });

  it('the checks that need no facts leave the draw to go on', () => {
    expect(checkDraw(open, request(1))).toBeUndefined();
    expect(checkDraw(drawing, request(2, agent))).toBeUndefined();
  });
});

describe('planDraw: the write', () => {
  it('LOT-DRAW-1, the first request: the freeze (pool held) and position 1 in one statement', () => {
    const plan = written(planDraw(open, request(1), { now, digest, beacon: null, number: 7 }));
    const at = new Date(now);
    expect(plan.waitFor).toBeNull();
    expect(plan.write).toMatchObject({
      read: { id: 11, status: 'open', drawn: 0, entries },
      userId: shop.id,
      actorId: shop.id,
      pool: 2000,
      transactionId: null,
      draws: [{ number: 7, drawnAt: at.toISOString() }],
      digest,
      freeze: { at, beaconRound: null, latestRound: null },
      holdDescription: 'Game in progress with 2 numbers',
    });
    expect(plan.write.read.caller).toBeUndefined();
    expect(plan.write.beacon).toBeUndefined();
    expect(plan.write.settlement).toBeUndefined();
    expect(plan.write.audit).toEqual({
      address: '203.0.113.9',
      rows: [
        {
          action: 'game.frozen',
          details: {
            code: 'c0de',
            protocol: 'LOT-DRAW-1',
            entries: 2,
            entriesDigest: digest,
            pool: '20.00',
            frozenAt: at.toISOString(),
          },
        },
        { action: 'game.drawn', details: { code: 'c0de', position: 1, number: 7 } },
      ],
    });
    expect(plan.after).toEqual({
      status: 'drawing',
      draws: plan.write.draws,
      entriesDigest: digest,
      frozenAt: at,
      beaconRound: null,
      beaconLatestRound: null,
    });
  });

  it('LOT-DRAW-2, the first request: the freeze alone, round R named, the answer waits for R', () => {
    const facts = { now, digest, beacon: { kind: 'freeze', round: 1234, latest: 1232 } as const };
    const plan = written(planDraw(open2, request(1), facts));
    expect(plan.waitFor).toBe(1234);
    expect(plan.write.draws).toEqual([]);
    expect(plan.write.freeze).toEqual({ at: new Date(now), beaconRound: 1234, latestRound: 1232 });
    expect(plan.write.audit.rows).toEqual([
      {
        action: 'game.frozen',
        details: expect.objectContaining({
          protocol: 'LOT-DRAW-2',
          beaconRound: 1234,
          latestRound: 1232,
          frozenAt: new Date(now).toISOString(),
        }),
      },
    ]);
    expect(plan.after).toMatchObject({
      status: 'drawing',
      draws: [],
      frozenAt: new Date(now),
      beaconRound: 1234,
      beaconLatestRound: 1232,
    });
  });

  it('LOT-DRAW-2, position 1 once R is fetched: R kept with the game, the upline may finish it', () => {
    const beacon = { kind: 'fetched', round: 1234, signature: 'a'.repeat(96), randomness: 'b'.repeat(64) } as const;
    const plan = written(planDraw(frozen2, request(1, agent), { now, digest, beacon, number: 4 }));
    expect(plan.waitFor).toBeNull();
    expect(plan.write).toMatchObject({
      read: { status: 'drawing', drawn: 0 },
      actorId: agent.id,
      userId: shop.id,
      transactionId: 21,
      beacon: { signature: beacon.signature, randomness: beacon.randomness },
    });
    expect(plan.write.freeze).toBeUndefined();
    expect(plan.write.audit.rows).toEqual([
      { action: 'game.drawn', details: { code: 'c0de', position: 1, number: 4 } },
    ]);
    expect(plan.after).toMatchObject({ beaconSignature: beacon.signature, beaconRandomness: beacon.randomness });
  });

  it('R already stored: the draw stores nothing more', () => {
    const round = { ...frozen2, beaconSignature: 'a'.repeat(96), beaconRandomness: 'b'.repeat(64) };
    const beacon = { kind: 'stored', round: 1234, randomness: 'b'.repeat(64) } as const;
    const plan = written(planDraw(round, request(1), { now, digest, beacon, number: 4 }));
    expect(plan.write.beacon).toBeUndefined();
    expect(plan.after).not.toHaveProperty('beaconSignature');
  });

  it('the last position settles: the sales-history record, its winners, the settled audit row', () => {
    const plan = written(planDraw(drawing, request(2), { now, digest, beacon: null, number: 4 }));
    expect(plan.after.status).toBe('settled');
    expect(plan.write.settlement).toEqual({
      description: 'Game played with 2 numbers, 2 winners',
      sale: {
        parentId: agent.id,
        superagentId: callers.superagent.id,
        startRange: 1,
        endRange: 20,
        betAmount: 1000,
        totalPrize: 1600,
        commission: 400,
        selectedCount: 2,
        gameData: {
          selectedNumbers: entries.map(({ number, name, phoneNumber }) => ({ number, name, phoneNumber })),
          winningNumbers: [7, 4],
          drawCount: 2,
        },
        numbers: [7, 4],
      },
      winners: [
        { number: 7, name: 'Ben Cruz', phoneNumber: '555-0107', position: 1, prizeAmount: 1000 },
        { number: 4, name: 'Ana Lopez', phoneNumber: '555-0104', position: 2, prizeAmount: 600 },
      ],
    });
    expect(plan.write.audit.rows.map((row) => row.action)).toEqual(['game.drawn', 'game.settled']);
    expect(plan.write.audit.rows[1]?.details).toEqual({ code: 'c0de', pool: '20.00', numbers: [7, 4] });
  });

  it('one prize: the freeze, the draw and the settlement in one statement', () => {
    const round = { ...open, prizes: [{ position: 1, percentBps: 5000, name: 'First' }] };
    const plan = written(planDraw(round, request(1), { now, digest, beacon: null, number: 4 }));
    expect(plan.write.freeze).toBeDefined();
    expect(plan.write.settlement?.winners).toHaveLength(1);
    expect(plan.write.audit.rows.map((row) => row.action)).toEqual(['game.frozen', 'game.drawn', 'game.settled']);
  });

  it("a draw from the process's memory carries the caller, so the statement checks its reach (decision 052)", () => {
    const plan = written(planDraw(drawing, request(2, agent, true), { now, digest, beacon: null, number: 4 }));
    expect(plan.write.read.caller).toBe(agent);
  });
});
