import { describe, expect, it } from 'vitest';
import { decimalToCents, formatCents, formatMoney, groupThousands, parseAmountToCents } from './money.ts';

describe('parseAmountToCents', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['0.01', 1],
    [12.34, 1234],
    [' 7.00 ', 700],
    ['1000000000.00', 100_000_000_000],
  ])('parses %j as %i cents', (input, cents) => {
    expect(parseAmountToCents(input)).toBe(cents);
  });

  it.each([
    ['0.001'],
    ['-1'],
    [-1],
    ['abc'],
    [true],
    [null],
    [Infinity],
    [Number.NaN],
    ['1e3'],
    [0.1 + 0.2],
    [''],
    ['.5'],
    [{}],
  ])('refuses %j', (input) => {
    expect(parseAmountToCents(input)).toBeNull();
  });
});

describe('formatting', () => {
  it('formats cents with two decimals', () => {
    expect(formatCents(125000)).toBe('1250.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(0n)).toBe('0.00');
  });

  it('formats dashboard money with a $ prefix and grouping', () => {
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
    expect(['0', '999', '1000', '12345', '1234567', '-1234'].map(groupThousands)).toEqual([
      '0',
      '999',
      '1,000',
      '12,345',
      '1,234,567',
      '-1,234',
    ]);
    expect(formatMoney(-100)).toBe('-$1.00');
  });

  it('round-trips API decimals', () => {
    expect(decimalToCents('1250.00')).toBe(125000);
    expect(decimalToCents('-0.50')).toBe(-50);
    expect(decimalToCents(3.1)).toBe(310);
  });
});
