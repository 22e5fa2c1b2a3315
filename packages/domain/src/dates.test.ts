import { describe, expect, it } from 'vitest';
import { dayIn, dayRange, formatDateTime, formatDateTimeIn, isTimeZone } from './dates.ts';

describe('dayRange', () => {
  it('runs from the first to the last millisecond of the local days', () => {
    const { from, to } = dayRange('2026-03-01', '2026-03-02');
    const start = new Date(from ?? '');
    const end = new Date(to ?? '');
    expect([
      start.getFullYear(),
      start.getMonth(),
      start.getDate(),
      start.getHours(),
      start.getMinutes(),
      start.getMilliseconds(),
    ]).toEqual([2026, 2, 1, 0, 0, 0]);
    expect([end.getDate(), end.getHours(), end.getMinutes(), end.getSeconds(), end.getMilliseconds()]).toEqual([
      2, 23, 59, 59, 999,
    ]);
  });

  it('leaves out an unset or malformed side', () => {
    expect(dayRange(undefined, '2026-03-02').from).toBeUndefined();
    expect(dayRange('nonsense', undefined)).toEqual({ from: undefined });
  });
});

describe('formatDateTime', () => {
  it('uses the en-US short month, day, hour and minute', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 16, 5))).toBe('Nov 22, 4:05 PM');
    expect(formatDateTime(new Date(2026, 0, 3, 0, 0))).toBe('Jan 3, 12:00 AM');
    expect(formatDateTime(new Date(2026, 11, 31, 12, 59))).toBe('Dec 31, 12:59 PM');
  });

  it('prints what Intl prints for en-US, every month and every hour, from a Date or an ISO string', () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    for (let month = 0; month < 12; month++) {
      for (let hour = 0; hour < 24; hour++) {
        const date = new Date(2026, month, 1 + ((month * 7 + hour) % 28), hour, (hour * 7) % 60);
        // Some ICU versions put a narrow no-break space before AM/PM; our format has a space
        // (docs/product/screens.md#formats).
        const expected = intl.format(date).replace('\u202f', ' ');
        expect(formatDateTime(date)).toBe(expected);
        expect(formatDateTime(date.toISOString())).toBe(expected);
      }
    }
  });

  it('refuses an invalid date as Intl does', () => {
    expect(() => formatDateTime('not a date')).toThrow(RangeError);
  });
});

describe('dayIn', () => {
  it('is the day the instant falls on in the zone', () => {
    const instant = new Date('2026-03-01T03:00:00Z');
    expect(dayIn('UTC', instant)).toBe('2026-03-01');
    expect(dayIn('America/New_York', instant)).toBe('2026-02-28');
    expect(dayIn('Asia/Tokyo', new Date('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
  });
});

describe('formatDateTimeIn', () => {
  it("writes an instant as the screens do, on a named zone's wall clock, with the year when asked", () => {
    const paid = '2026-11-29T05:31:00.000Z';
    expect(formatDateTimeIn(paid, 'America/Sao_Paulo')).toBe('Nov 29, 2:31 AM');
    expect(formatDateTimeIn(paid, 'Europe/Moscow')).toBe('Nov 29, 8:31 AM');
    expect(formatDateTimeIn(paid, 'Asia/Manila', { year: true })).toBe('Nov 29, 2026, 1:31 PM');
    expect(formatDateTimeIn('2026-12-31T23:59:00.000Z', 'Pacific/Kiritimati', { year: true })).toBe(
      'Jan 1, 2027, 1:59 PM',
    );
    expect(formatDateTimeIn('2026-11-29T00:05:00.000Z', 'UTC')).toBe('Nov 29, 12:05 AM');
    expect(formatDateTime(new Date(2026, 10, 22, 16, 5), { year: true })).toBe('Nov 22, 2026, 4:05 PM');
  });

  it('knows a zone by its IANA name and refuses anything else', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['', 'Mars/Olympus', 'Europe/Berlin; DROP', 'x'.repeat(65)])
      expect(isTimeZone(zone)).toBe(false);
  });
});
