import { describe, expect, it } from 'vitest';
import {
  drawNumber,
  formatBps,
  numbersInRange,
  numbersLeft,
  parsePercentToBps,
  prizeFor,
  randomBelowFrom,
  settleGame,
  type RandomBelow,
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

/** Web Crypto, as the app uses it (a global in Node 20 and every browser). */
const webCrypto = (globalThis as unknown as { crypto: { getRandomValues: (values: Uint32Array) => Uint32Array } })
  .crypto;
const cryptoBelow = randomBelowFrom((values) => webCrypto.getRandomValues(values));

/** A small seeded generator, so a failing random game can be replayed. */
function seeded(seed: number): RandomBelow {
  let state = seed >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * bound);
  };
}

describe('drawNumber', () => {
  it('is uniform over the numbers not drawn yet (each within 7% of its share over 85,000 draws)', () => {
    const drawn = [3, 5, 7];
    const counts = new Map<number, number>();
    const draws = 85_000;
    for (let i = 0; i < draws; i++) {
      const n = drawNumber(1, 20, drawn, cryptoBelow);
      counts.set(n ?? -1, (counts.get(n ?? -1) ?? 0) + 1);
    }
    const remaining = numbersLeft(1, 20, [], drawn);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(remaining);
    const expected = draws / remaining.length; // 5,000; one standard deviation is about 69, so 7% is 5 of them
    for (const n of remaining) expect(Math.abs((counts.get(n) ?? 0) - expected)).toBeLessThan(expected * 0.07);
  });

  it('never repeats: drawing a whole range gives each number exactly once, then nothing', () => {
    const drawn: number[] = [];
    for (let i = 0; i < 100; i++) {
      const n = drawNumber(1, 100, drawn, cryptoBelow);
      expect(n).not.toBeNull();
      expect(drawn).not.toContain(n);
      drawn.push(n as number);
    }
    expect([...drawn].sort((a, b) => a - b)).toEqual(numbersInRange(1, 100));
    expect(drawNumber(1, 100, drawn, cryptoBelow)).toBeNull();
  });

  it('terminates with one random number per draw, whatever the source answers', () => {
    let calls = 0;
    const alwaysFirst: RandomBelow = () => {
      calls++;
      return 0;
    };
    expect(drawNumber(5, 9, [5, 6], alwaysFirst)).toBe(7);
    expect(drawNumber(5, 9, [5, 6, 7, 9], alwaysFirst)).toBe(8);
    expect(drawNumber(5, 9, [5, 6, 7, 8, 9], alwaysFirst)).toBeNull();
    expect(calls).toBe(2);
  });

  it('the crypto source rejects the values that would favour small numbers', () => {
    const words = [2 ** 32 - 1, 5];
    const below = randomBelowFrom((values) => {
      values[0] = words.shift() ?? 0;
      return values;
    });
    // 2^32 − 1 is past the last whole multiple of 3, so it is refused and 5 gives 5 % 3.
    expect(below(3)).toBe(2);
    expect(words).toEqual([]);
    expect(() => below(0)).toThrow(RangeError);
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
      const drawn: number[] = [];
      for (let i = 0; i < positions; i++) drawn.push(drawNumber(start, end, drawn, random) as number);

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
    ['1', '20', '1.234', MESSAGES.betInvalid],
  ])('refuses start %j, end %j, bet %j: %s', (start, end, bet, message) =>
    expect(messages(parse(start, end, bet))).toContain(message),
  );
});
