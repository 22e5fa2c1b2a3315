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
export function formatDateTime(value: string | Date, options: { year?: boolean } = {}): string {
  const date = instant(value);
  return clockText(
    { year: date.getFullYear(), month: date.getMonth(), day: date.getDate(), hours: date.getHours() },
    date.getMinutes(),
    options.year === true,
  );
}

type WallDay = { year: number; month: number; day: number; hours: number };

function instant(value: string | Date): Date {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  return date;
}

/** "Nov 22, 4:05 PM", or with the year "Nov 22, 2026, 4:05 PM" (what en-US `Intl` prints with `year: 'numeric'`). */
function clockText(at: WallDay, minutes: number, withYear: boolean): string {
  const day = `${MONTHS[at.month]} ${at.day}${withYear ? `, ${at.year}` : ''}`;
  const clock = `${at.hours % 12 || 12}:${String(minutes).padStart(2, '0')} ${at.hours < 12 ? 'AM' : 'PM'}`;
  return `${day}, ${clock}`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an IANA time zone (one formatter per zone, made once). */
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Whether the text names a time zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    zoneFormat(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * `formatDateTime` in a named time zone, for text the server writes for a reader elsewhere (a
 * refusal naming when a prize was paid, decision 090): the same words the reader's screen shows.
 */
export function formatDateTimeIn(value: string | Date, timeZone: string, options: { year?: boolean } = {}): string {
  const parts = new Map(
    zoneFormat(timeZone)
      .formatToParts(instant(value))
      .map((part) => [part.type, part.value]),
  );
  const at = {
    year: Number(parts.get('year')),
    month: Number(parts.get('month')) - 1,
    day: Number(parts.get('day')),
    hours: Number(parts.get('hour')) % 24,
  };
  return clockText(at, Number(parts.get('minute')), options.year === true);
}
