import { describe, expect, it } from 'vitest';
import { drawNumber, formatBps, parsePercentToBps, prizeFor, settleGame } from './game.ts';

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

describe('drawNumber', () => {
  it('never repeats a drawn number while others remain', () => {
    const drawn: number[] = [];
    for (let i = 0; i < 10; i++) drawn.push(drawNumber(1, 10, drawn));
    expect([...drawn].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('gives up after 100 attempts when every number is drawn', () => {
    let calls = 0;
    const n = drawNumber(1, 2, [1, 2], () => {
      calls++;
      return 0;
    });
    expect(calls).toBe(100);
    expect(n).toBe(1);
  });
});
