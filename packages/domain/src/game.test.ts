import { describe, expect, it } from 'vitest';
import {
  formatBps,
  heldGameDescription,
  numbersInRange,
  numbersLeft,
  parsePercentToBps,
  ledgerDescription,
  playedGameDescription,
  prizeFor,
  settleGame,
} from './game.ts';
import { MESSAGES } from './messages.ts';
import { gameSetupSchema } from './schemas/sales-history.ts';

const people = (numbers: number[]) =>
  numbers.map((number) => ({ number, name: `P${number}`, phoneNumber: `555-${number}` }));

describe('percentages', () => {
  it.each([
    ['25', 2500],
    ['33.33', 3333],
    [0, 0],
    [100, 10000],
    ['12.5', 1250],
  ])('parses %j as %i basis points', (input, bps) => expect(parsePercentToBps(input)).toBe(bps));

  it.each([['100.01'], [-1], ['1.234'], ['abc'], [null], [Infinity]])('refuses %j', (input) =>
    expect(parsePercentToBps(input)).toBeNull(),
  );

  it('formats with two decimals', () => expect(formatBps(3333)).toBe('33.33'));
});

describe('settleGame', () => {
  it('pays each drawn position that a participant picked and keeps the rest as commission', () => {
    const result = settleGame({
      selected: people([3, 7, 9]),
      drawn: [7, 4, 3],
      settings: [
        { position: 1, percentBps: 5000 },
        { position: 2, percentBps: 3000 },
        { position: 3, percentBps: 1000 },
      ],
      betCents: 1000,
    });
    expect(result.pool).toBe(3000);
    expect(result.winners).toEqual([
      { number: 7, name: 'P7', phoneNumber: '555-7', position: 1, prizeAmount: 1500 },
      { number: 3, name: 'P3', phoneNumber: '555-3', position: 3, prizeAmount: 300 },
    ]);
    expect(result.totalPrize).toBe(1800);
    expect(result.commission).toBe(1200);
  });

  it('rounds prizes down to the cent so prizes + commission equal the pool exactly', () => {
    // 7 × 1.00 = 7.00; 33.33% of 700 cents = 233.31 → 233 cents.
    const result = settleGame({
      selected: people([1, 2, 3, 4, 5, 6, 7]),
      drawn: [1, 2, 3],
      settings: [1, 2, 3].map((position) => ({ position, percentBps: 3333 })),
      betCents: 100,
    });
    expect(result.winners.map((w) => w.prizeAmount)).toEqual([233, 233, 233]);
    expect(result.totalPrize + result.commission).toBe(result.pool);
  });

  it('does not overflow on the largest pools', () => {
    expect(prizeFor(100 * 100_000_000_000, 3333)).toBe(3_333_000_000_000);
  });
});

/** A small seeded generator, so a failing random game can be replayed. */
function seeded(seed: number): (bound: number) => number {
  let state = seed >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * bound);
  };
}

describe("a game's ledger descriptions", () => {
  it('say "1 number" and "1 winner", and the plural for any other count', () => {
    expect(heldGameDescription(1)).toBe('Game in progress with 1 number');
    expect(heldGameDescription(4)).toBe('Game in progress with 4 numbers');
    expect(playedGameDescription(1, 1)).toBe('Game played with 1 number, 1 winner');
    expect(playedGameDescription(5, 0)).toBe('Game played with 5 numbers, 0 winners');
    expect(playedGameDescription(4, 2)).toBe('Game played with 4 numbers, 2 winners');
    // A row written before, as the lists now show it.
    expect(ledgerDescription('Game played with 1 numbers, 1 winners')).toBe('Game played with 1 number, 1 winner');
    expect(ledgerDescription('Game played with 11 numbers, 21 winners')).toBe(
      'Game played with 11 numbers, 21 winners',
    );
    expect(ledgerDescription(null)).toBeNull();
  });
});

describe('numbersLeft', () => {
  it('lists the numbers nobody chose and nobody drew, in order', () => {
    expect(numbersLeft(1, 10, [2, 4, 9], [4, 7])).toEqual([1, 3, 5, 6, 8, 10]);
    expect(numbersLeft(1, 3, [1, 2], [3])).toEqual([]);
  });
});

describe('random games', () => {
  it('prizes + commission = pool, each prize floored to the cent, for 1,000 random games', () => {
    const random = seeded(20_261_122);
    for (let game = 0; game < 1_000; game++) {
      const start = 1 + random(60);
      const end = start + 1 + random(100 - start);
      const betCents = 100 + random(1_000_000);
      const positions = 1 + random(Math.min(10, end - start + 1));
      let left = 10_000;
      const settings = Array.from({ length: positions }, (_, i) => {
        const percentBps = random(left + 1);
        left -= percentBps;
        return { position: i + 1, percentBps };
      });
      const chosen = numbersInRange(start, end).filter(() => random(2) === 1);
      const selected = people(chosen.length > 0 ? chosen : [start]);
      // Distinct numbers of the range, in a random order (the draw itself is LOT-DRAW-1's: draw.test.ts).
      const pool = numbersInRange(start, end);
      const drawn: number[] = [];
      for (let i = 0; i < positions; i++) drawn.push(...pool.splice(random(pool.length), 1));

      const result = settleGame({ selected, drawn, settings, betCents });
      const context = JSON.stringify({ game, start, end, betCents, settings, drawn });
      expect(result.pool, context).toBe(selected.length * betCents);
      expect(result.totalPrize + result.commission, context).toBe(result.pool);
      expect(result.commission, context).toBeGreaterThanOrEqual(0);
      for (const winner of result.winners) {
        const setting = settings.find((s) => s.position === winner.position);
        expect(winner.prizeAmount, context).toBe(Math.floor((result.pool * (setting?.percentBps ?? 0)) / 10_000));
        expect(drawn[winner.position - 1], context).toBe(winner.number);
        expect(chosen.length === 0 ? [start] : chosen, context).toContain(winner.number);
      }
    }
  });
});

describe('gameSetupSchema', () => {
  const parse = (startRange: string, endRange: string, betAmount: string) =>
    gameSetupSchema.safeParse({ startRange, endRange, betAmount });
  const messages = (result: ReturnType<typeof parse>) =>
    result.success ? [] : result.error.issues.map((i) => i.message);

  it('takes the defaults and a bet in cents', () => {
    expect(parse('1', '20', '10')).toMatchObject({
      success: true,
      data: { startRange: 1, endRange: 20, betAmount: 1000 },
    });
    expect(parse('99', '100', '1.25')).toMatchObject({ success: true, data: { betAmount: 125 } });
  });

  it.each([
    ['0', '20', '10', MESSAGES.rangeStartInvalid],
    ['', '20', '10', MESSAGES.rangeStartInvalid],
    ['1.5', '20', '10', MESSAGES.rangeStartInvalid],
    ['5', '5', '10', MESSAGES.rangeEndInvalid],
    ['5', '101', '10', MESSAGES.rangeEndInvalid],
    ['1', '20', '0.99', MESSAGES.betInvalid],
    ['1', '20', '', MESSAGES.betInvalid],
    ['1', '20', '1.234', MESSAGES.betDecimals],
    ['1', '20', '0.001', MESSAGES.betDecimals],
  ])('refuses start %j, end %j, bet %j: %s', (start, end, bet, message) =>
    expect(messages(parse(start, end, bet))).toContain(message),
  );
});
