import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { formatCents } from '@lot/domain/money';
import type { ExportFormat } from '@lot/domain/schemas/exports';

/**
 * Lists exported as CSV or Excel (docs/product/reports.md#exports, decision 020): read a page at a
 * time by keyset and written to the reply as they come, so a million rows take the memory of one
 * page. Money is a number with two decimals, times are the caller's local wall time, and a text
 * cell that a spreadsheet would run as a formula starts with `'`.
 */

export type ExportColumn<Row> = {
  header: string;
  type: 'text' | 'integer' | 'money' | 'time';
  /** Text, a whole number, money in cents (a number, a bigint or its digits), or an instant (a Date, or
   * PostgreSQL's text of one). */
  value: (row: Row) => string | number | bigint | Date | null;
};

export type ExportSource<Row> = {
  /** Without extension: `sales-history-2026-11-01-to-2026-11-23`. */
  fileName: string;
  columns: ExportColumn<Row>[];
  /** The rows, a page at a time, in the list's order. */
  pages: AsyncIterable<Row[]>;
};

/** Rows read per statement; tests lower it to cross many page boundaries with few rows. */
export const EXPORT_LIMITS = { pageSize: 1_000 };

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DD HH:mm:ss` of an instant in a time zone. Asking Intl for every row would cost more
 * than the rest of the row: the zone's offset is asked once per quarter hour of instants (zones
 * change offset only on such boundaries) and the wall time computed from it.
 */
export function wallClock(timeZone: string): (instant: Date) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  const QUARTER = 900_000;
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const quarter = Math.floor(ms / QUARTER);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      const at = quarter * QUARTER;
      const part = Object.fromEntries(format.formatToParts(at).map(({ type, value }) => [type, Number(value)]));
      offset = Date.UTC(part.year ?? 0, (part.month ?? 1) - 1, part.day, part.hour, part.minute, part.second) - at;
      if (offsets.size > 100_000) offsets.clear();
      offsets.set(quarter, offset);
    }
    return offset;
  };
  return (instant) => {
    const ms = instant.getTime();
    const local = new Date(ms + offsetAt(ms));
    return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  };
}

/** A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a return first) is kept as text. */
export function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Cents as `12.50`. Below $100 billion a double holds n / 100 far closer than half a cent, so
 * `toFixed(2)` gives the exact decimals (and is much cheaper than BigInt); above, BigInt.
 */
export function money(cents: number | bigint | string): string {
  const n = typeof cents === 'string' ? Number(cents) : cents;
  return typeof n === 'number' && Math.abs(n) < 1e13 ? (n / 100).toFixed(2) : formatCents(BigInt(cents));
}

const instant = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/** RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* csvChunks<Row>(source: ExportSource<Row>, timeZone: string): AsyncGenerator<string> {
  const local = wallClock(timeZone);
  const cell = (column: ExportColumn<Row>, row: Row): string => {
    const value = column.value(row);
    if (value === null) return '';
    if (column.type === 'money') return money(value as number | bigint | string);
    if (column.type === 'time') return local(instant(value));
    if (column.type === 'integer') return String(value);
    return csvField(neutralised(String(value)));
  };
  // A byte order mark, so a spreadsheet opening the file reads it as UTF-8.
  yield `\uFEFF${source.columns.map((column) => csvField(column.header)).join(',')}\r\n`;
  for await (const page of source.pages) {
    yield page.map((row) => `${source.columns.map((column) => cell(column, row)).join(',')}\r\n`).join('');
  }
}

/** The wall time of the zone as a timezone-less Excel date (Excel has no zones). */
function excelDate(timeZone: string): (instant: Date) => Date {
  const local = wallClock(timeZone);
  return (instant) => new Date(`${local(instant).replace(' ', 'T')}Z`);
}

function xlsxStream<Row>(source: ExportSource<Row>, timeZone: string, onError: (error: unknown) => void): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Export', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = source.columns.map((column) => ({
    header: column.header,
    width: column.type === 'time' ? 20 : column.type === 'text' ? 24 : 14,
    style:
      column.type === 'money' ? { numFmt: '0.00' } : column.type === 'time' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {},
  }));
  const local = excelDate(timeZone);
  const cell = (column: ExportColumn<Row>, row: Row) => {
    const value = column.value(row);
    if (value === null) return null;
    if (column.type === 'money') return Number(value) / 100;
    if (column.type === 'time') return local(instant(value));
    if (column.type === 'integer') return Number(value);
    return neutralised(String(value));
  };
  void (async () => {
    for await (const page of source.pages) {
      for (const row of page) sheet.addRow(source.columns.map((column) => cell(column, row))).commit();
      // The zip is written as rows are committed; wait while the client reads what is buffered.
      if (out.readableLength > out.readableHighWaterMark * 16) {
        await new Promise((resolve) => out.once('drain', resolve).once('close', resolve));
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

/**
 * Sends the export as an attachment. A failure after the first bytes cannot become an error
 * answer any more: the response is cut short (the download fails visibly) and the error logged.
 */
export function sendExport<Row>(
  reply: FastifyReply,
  format: ExportFormat,
  timeZone: string,
  source: ExportSource<Row>,
): FastifyReply {
  const log = (error: unknown) => reply.log.error({ err: error }, 'export failed while streaming');
  const body =
    format === 'csv' ? Readable.from(csvChunks(source, timeZone)).on('error', log) : xlsxStream(source, timeZone, log);
  return reply
    .header('content-type', CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${source.fileName}.${format}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/**
 * `{name}-{from}-to-{to}` in the caller's days, `{name}-until-{today}` without a start; today is
 * `now`'s day (the request's clock, `ctx.clock()`); days are UTC's without a time zone.
 */
export function exportFileName(
  name: string,
  period: { from?: string; to?: string },
  timeZone: string | undefined,
  now: number,
): string {
  const day = (instant: string | number) => wallClock(timeZone ?? 'UTC')(new Date(instant)).slice(0, 10);
  const to = day(period.to ?? now);
  return period.from ? `${name}-${day(period.from)}-to-${to}` : `${name}-until-${to}`;
}

/** The last row of a page a list ordered newest first (its exact time as text, its id) continues after. */
export type TimeKey = { at: string; id: number };

/** Rows after `after` in a newest-first order on (time, id); nothing to narrow on the first page. */
export function olderThan(time: Column, id: Column, after: TimeKey | undefined): SQL | undefined {
  return after && sql`(${time}, ${id}) < (${after.at}::timestamptz, ${after.id})`;
}

/** Pages of rows by keyset: `fetch(after)` reads the page after the last row of the one before. */
export async function* keysetPages<Row, Key>(
  fetch: (after: Key | undefined, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row[]> {
  const pageSize = EXPORT_LIMITS.pageSize;
  // A read still running when the client goes away is not awaited: its failure must not go unhandled.
  const reading = (after: Key | undefined) => {
    const page = fetch(after, pageSize);
    page.catch(() => undefined);
    return page;
  };
  let next = reading(undefined);
  for (;;) {
    const page = await next;
    const full = page.length === pageSize;
    // The next page is read while this one is written out.
    if (full) next = reading(keyOf(page[page.length - 1] as Row));
    if (page.length > 0) yield page;
    if (!full) return;
  }
}
