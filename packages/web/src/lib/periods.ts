/**
 * Local days and periods of them for the day close, the statement and the downline report
 * (docs/product/screens.md#period-picker): days as YYYY-MM-DD in the browser's own time zone, which
 * is also the zone the server is asked to count the days in; a period's `from` and `to` both count.
 */

export type Period = { from: string; to: string };
export type PresetName = 'today' | 'this-week' | 'this-month' | 'last-month';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of an instant in the browser's zone. */
export function localDay(instant: Date = new Date()): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** The day `offset` days from `day` (calendar arithmetic, no clock involved). */
export function shiftDay(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + offset));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The browser's IANA time zone (`Europe/Madrid`); UTC when the browser names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The `Time-Zone` header of a call whose answer may name a time in words (a claim's refusal): the
 * server writes it on this browser's wall clock, as the screen shows times (decision 090). Sent by
 * those calls only: the first `Intl` call of a page is not free (dates.ts).
 */
export const timeZoneHeader = (): Record<string, string> => ({ 'time-zone': browserTimeZone() });

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isDay(text: string | null | undefined): text is string {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const PRESETS: { name: PresetName; label: string }[] = [
  { name: 'today', label: 'Today' },
  { name: 'this-week', label: 'This week' },
  { name: 'this-month', label: 'This month' },
  { name: 'last-month', label: 'Last month' },
];

/** A preset's days as of `now`: a week starts on Monday; this week and this month end today. */
export function presetPeriod(name: PresetName, now: Date = new Date()): Period {
  const today = localDay(now);
  const y = now.getFullYear();
  const m = now.getMonth();
  switch (name) {
    case 'today':
      return { from: today, to: today };
    case 'this-week': {
      const sinceMonday = (now.getDay() + 6) % 7;
      return { from: localDay(new Date(y, m, now.getDate() - sinceMonday)), to: today };
    }
    case 'this-month':
      return { from: localDay(new Date(y, m, 1)), to: today };
    case 'last-month':
      return { from: localDay(new Date(y, m - 1, 1)), to: localDay(new Date(y, m, 0)) };
  }
}

/** The preset a period is, if any (a custom period otherwise). */
export function presetOf(period: Period, now: Date = new Date()): PresetName | null {
  const match = PRESETS.find(({ name }) => {
    const preset = presetPeriod(name, now);
    return preset.from === period.from && preset.to === period.to;
  });
  return match?.name ?? null;
}

/** The period in the address (?from=&to=), else this month. */
export function periodFrom(params: URLSearchParams, now: Date = new Date()): Period {
  const from = params.get('from');
  const to = params.get('to');
  if (isDay(from) && isDay(to) && from <= to) return { from, to };
  return presetPeriod('this-month', now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day as the app writes dates: `Nov 23, 2026`. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1] ?? ''} ${d}, ${y}`;
}

/** `Nov 1, 2026 – Nov 23, 2026`, or one day alone. */
export function formatPeriod({ from, to }: Period): string {
  return from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;
}

/** An instant with its year, in the browser's zone: `Nov 23, 2026, 8:05 PM`. */
export function formatMoment(instant: Date): string {
  const hours = instant.getHours();
  const minutes = pad(instant.getMinutes());
  return `${formatDay(localDay(instant))}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
