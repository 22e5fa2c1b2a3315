import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import { money, neutralised, wallClock } from './export.ts';

/** The wall time Intl gives for an instant in a zone, as the exports write it. */
function reference(instant: Date, timeZone: string): string {
  const part = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map(({ type, value }) => [type, value]),
  );
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

const ZONES = [
  'UTC',
  'Europe/Madrid',
  'America/New_York',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
  'America/St_Johns',
];

describe('export cells', () => {
  it('write the same wall time as Intl, across daylight-saving changes and odd offsets', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (zone, ms) => {
          const instant = new Date(ms);
          expect(wallClock(zone)(instant)).toBe(reference(instant, zone));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('change offset exactly at a daylight-saving change', () => {
    const changes: [string, string][] = [
      ['Europe/Madrid', '2026-03-29T01:00:00Z'],
      ['Europe/Madrid', '2026-10-25T01:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
    ];
    for (const [zone, at] of changes) {
      const local = wallClock(zone);
      for (const delta of [-60_001, -1_000, -1, 0, 1, 999, 60_000]) {
        const instant = new Date(Date.parse(at) + delta);
        expect(local(instant), `${zone} ${instant.toISOString()}`).toBe(reference(instant, zone));
      }
    }
  });

  it('write money as the ledger does, to the cent, from a number or its digits', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e13, max: 1e13 }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 })),
        (cents) => {
          expect(money(cents)).toBe(formatCents(BigInt(cents)));
          // As the driver may answer an int8: its digits.
          expect(money(String(cents))).toBe(formatCents(BigInt(cents)));
        },
      ),
      { numRuns: 20_000 },
    );
    expect(money(-5)).toBe('-0.05');
    expect(money(0)).toBe('0.00');
  });

  it('keep text a spreadsheet would run as a formula as text', () => {
    for (const text of ['=1+1', '+31 600', '-5', '@SUM(A1)', '\tx', '\rx']) expect(neutralised(text)).toBe(`'${text}`);
    for (const text of ['Ann', '12.50', 'a=b', '']) expect(neutralised(text)).toBe(text);
  });
});
