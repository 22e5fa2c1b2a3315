import { describe, expect, it } from 'vitest';
import { dayRange, formatDateTime } from './dates.ts';

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
  });
});
