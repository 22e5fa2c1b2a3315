import { describe, expect, it } from 'vitest';
import { callers, sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import {
  gamesWhere,
  insertRoundQuery,
  participantsStatement,
  setEntriesQuery,
  voidStatement,
} from './games.repository.ts';
import { drawStatement, type DrawWrite } from './draw.repository.ts';

/**
 * The games' hand-written statements (decisions 030, 052), so that a change to one shows as a diff
 * of its snapshot: a game opened, its participants replaced, the draw in each of its shapes (the
 * freeze that holds the pool, a middle draw, the last draw that settles, one written from memory), the void before and after
 * the freeze, the remembered participants and the list's condition.
 */

const entries = [
  { number: 4, name: 'Ana Lopez', phoneNumber: '555-0104', nonce: '0123456789abcdef', canonical: true },
  { number: 7, name: 'Ben Cruz', phoneNumber: '555-0107', nonce: 'fedcba9876543210', canonical: true },
];

const base: DrawWrite = {
  read: { id: 11, status: 'open', drawn: 0, entries },
  userId: 4,
  actorId: 4,
  pool: 2000,
  transactionId: null,
  draws: [{ number: 7, drawnAt: '2026-11-26T12:00:01.000Z' }],
  digest: 'd'.repeat(64),
  freeze: { at: new Date('2026-11-26T12:00:00.000Z'), beaconRound: null, latestRound: null },
  holdDescription: 'Game in progress with 2 numbers',
  audit: {
    address: '203.0.113.9',
    rows: [
      { action: 'game.frozen', details: { code: 'c0de', entries: 2 } },
      { action: 'game.drawn', details: { code: 'c0de', position: 1, number: 7 } },
    ],
  },
};

const settlement: NonNullable<DrawWrite['settlement']> = {
  description: 'Game played with 2 numbers, 1 winner',
  sale: {
    parentId: 3,
    superagentId: 2,
    startRange: 1,
    endRange: 20,
    betAmount: 1000,
    totalPrize: 1000,
    commission: 1000,
    selectedCount: 2,
    gameData: { selectedNumbers: entries, winningNumbers: [7, 4], drawCount: 2 },
    numbers: [7, 4],
  },
  winners: [{ number: 7, name: 'Ben Cruz', phoneNumber: '555-0107', position: 1, prizeAmount: 1000 }],
};

const draws: [string, DrawWrite][] = [
  ['the freeze with the first draw (LOT-DRAW-1): the pool held', base],
  [
    'the freeze alone (LOT-DRAW-2): the pool held, round R named',
    {
      ...base,
      draws: [],
      freeze: { at: base.freeze!.at, beaconRound: 1234, latestRound: 1232 },
      audit: { ...base.audit, rows: [base.audit.rows[0]!] },
    },
  ],
  [
    'the first draw after the freeze (LOT-DRAW-2): round R kept',
    {
      ...base,
      read: { ...base.read, status: 'drawing' },
      transactionId: 21,
      freeze: undefined,
      beacon: { signature: 'a'.repeat(96), randomness: 'b'.repeat(64) },
      audit: { ...base.audit, rows: [base.audit.rows[1]!] },
    },
  ],
  [
    'the last draw: the game settles',
    {
      ...base,
      read: { ...base.read, status: 'drawing', drawn: 1 },
      transactionId: 21,
      draws: [...base.draws, { number: 4, drawnAt: '2026-11-26T12:00:02.000Z' }],
      freeze: undefined,
      settlement,
      audit: {
        ...base.audit,
        rows: [
          { action: 'game.drawn', details: { code: 'c0de', position: 2, number: 4 } },
          { action: 'game.settled', details: { code: 'c0de', pool: '20.00', numbers: [7, 4] } },
        ],
      },
    },
  ],
  ['the freeze with a draw that also settles (one prize)', { ...base, settlement }],
  [
    "a middle draw written from memory (decision 052): the caller's scope checked, the player answered",
    {
      ...base,
      read: { ...base.read, status: 'drawing', caller: callers.agent },
      transactionId: 21,
      freeze: undefined,
      audit: { ...base.audit, rows: [base.audit.rows[1]!] },
    },
  ],
];

describe('the draw statement', () => {
  for (const [label, write] of draws) it(label, () => expect(sqlOf(drawStatement(write))).toMatchSnapshot());
});

describe('the void statement', () => {
  const input = {
    userId: 4,
    actorId: 3,
    pool: 2000,
    reason: 'Customer dispute over a number',
    audit: { address: '203.0.113.9', details: { code: 'c0de', reason: 'Customer dispute over a number' } },
  };
  it('before the freeze: discarded', () =>
    expect(
      sqlOf(voidStatement({ ...input, read: { id: 11, status: 'open' }, transactionId: null })),
    ).toMatchSnapshot());
  it('after the freeze: voided, the pool returned', () =>
    expect(
      sqlOf(voidStatement({ ...input, read: { id: 11, status: 'drawing' }, transactionId: 21 })),
    ).toMatchSnapshot());
});

describe('opening and filling a game', () => {
  it('the open', () =>
    expect(
      sqlOf(
        insertRoundQuery(sqlOnly, {
          code: 'c0de',
          userId: 4,
          parentId: 3,
          superagentId: 2,
          startRange: 1,
          endRange: 20,
          betAmount: 1000,
          prizes: [{ position: 1, percentBps: 5000, name: 'First Prize' }],
          seed: Buffer.alloc(4),
          seedSealed: true,
          commitment: 'e'.repeat(64),
          protocol: 'LOT-DRAW-1',
          beacon: null,
        }),
      ),
    ).toMatchSnapshot());
  it('the participants replaced', () => expect(sqlOf(setEntriesQuery(sqlOnly, 11, entries))).toMatchSnapshot());
  it('the remembered participants, searched by phone digits', () =>
    expect(sqlOf(participantsStatement(4, '555 01', 20))).toMatchSnapshot());
});

describe('the games list condition', () => {
  for (const [role, caller] of Object.entries(callers))
    it(`${role}, voided in a period`, () =>
      expect(
        sqlOf(
          gamesWhere(caller, { status: 'voided', from: '2026-11-01T00:00:00.000Z', to: '2026-11-26T23:59:59.999Z' }),
        ),
      ).toMatchSnapshot());
});
