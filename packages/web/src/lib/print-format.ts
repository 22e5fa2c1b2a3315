import { dateTime } from './format.ts';

// What printed paper says (slips, payout receipts, shift reports): apart from format.ts, which every
// first screen loads, since only the print screens need these.

/** "COPY · printed 2 times": a slip or receipt printed before says so (docs/product/game.md#slips). */
export const copyText = (printCount: number) => `COPY · printed ${printCount} times`;

/** A printed date with its year, in this device's zone: "Nov 23, 2026 · 7:34 PM". */
export function slipDateTime(value: string | Date): string {
  const [monthDay, time] = dateTime(value).split(', ');
  return `${monthDay}, ${new Date(value).getFullYear()} · ${time}`;
}
