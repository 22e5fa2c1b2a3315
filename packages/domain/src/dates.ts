/**
 * A date filter runs from 00:00:00.000 of the start day through 23:59:59.999 of the end day, both
 * inclusive, in the viewer's own time zone (docs/product/validation-and-errors.md#date-filters).
 * Dates are `YYYY-MM-DD` as an <input type="date"> gives them; the result is the pair of instants
 * the API takes.
 */
export function dayRange(startDate?: string, endDate?: string): { from?: string; to?: string } {
  const parse = (value: string, end: boolean) => {
    const [y, m, d] = value.split('-').map(Number);
    if (!y || !m || !d) return undefined;
    const date = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d, 0, 0, 0, 0);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  };
  return {
    ...(startDate && { from: parse(startDate, false) }),
    ...(endDate && { to: parse(endDate, true) }),
  };
}

/** The local day (YYYY-MM-DD) an instant falls on in an IANA time zone. */
export function dayIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Dates as docs/product/screens.md#formats shows them: en-US, short month, day, hour and minute
 * ("Nov 22, 4:05 PM"), in the viewer's time zone: what `Intl.DateTimeFormat('en-US', { month:
 * 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })` prints. Written out by hand
 * because the first `Intl` call in a page loads the browser's locale data: 30 to 150 ms of
 * main-thread work on a dashboard's first screen.
 */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
