/**
 * Local days as the day close names them (docs/product/screens.md#day-close): `YYYY-MM-DD` in the
 * browser's own time zone, the zone the server is asked to close the day in.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The browser's IANA time zone (`Europe/Madrid`); UTC when the browser names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `YYYY-MM-DD` of an instant in the browser's zone. */
export function localDay(instant: Date = new Date()): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isDay(text: string | null | undefined): text is string {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The day `offset` days from `day` (calendar arithmetic, no clock involved). */
export function shiftDay(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + offset));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** A day as the app writes dates (en-US, short month): `Nov 23, 2026`. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1] ?? ''} ${d}, ${y}`;
}

/** An instant with its year, in the browser's zone: `Nov 23, 2026, 8:05 PM`. */
export function formatMoment(instant: Date): string {
  const hours = instant.getHours();
  const minutes = pad(instant.getMinutes());
  return `${formatDay(localDay(instant))}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
