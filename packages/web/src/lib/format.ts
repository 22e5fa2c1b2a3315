import { formatDateTime } from '@lot/domain/dates';
import { decimalToCents, formatCents, formatMoney, groupThousands } from '@lot/domain/money';

/** docs/product/screens.md#formats: money with two decimals ($ on dashboards), dates en-US short month, day, time. */
export const money = (amount: string | number) => formatMoney(decimalToCents(amount));
export const amount = (value: string | number) => formatCents(decimalToCents(value));
export const dateTime = (value: string | Date) => formatDateTime(value);
/** A count as en-US writes it: 12345 → "12,345". */
export const count = (value: number) => groupThousands(String(value));
/** A printed date with its year (slips, receipts, shift reports), in this device's zone: "Nov 23, 2026 · 7:34 PM". */
/** "COPY · printed 2 times": a slip or receipt printed before says so (docs/product/game.md#slips). */
export const copyText = (printCount: number) => `COPY · printed ${printCount} times`;

export function slipDateTime(value: string | Date): string {
  const [monthDay, time] = dateTime(value).split(', ');
  return `${monthDay}, ${new Date(value).getFullYear()} · ${time}`;
}
