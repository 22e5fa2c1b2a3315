import { formatDateTime } from '@lot/domain/dates';

// What printed paper says (slips, payout receipts, shift reports): apart from format.ts, which every
// first screen loads, since only the print screens need these.

/** "COPY · printed 2 times": a slip or receipt printed before says so (docs/product/game.md#slips). */
export const copyText = (printCount: number) => `COPY · printed ${printCount} times`;

/**
 * A printed date (slips, receipts, reports): the screens' format with the year, since paper outlives
 * it, in this device's zone: "Nov 23, 2026, 7:34 PM" (decision 090).
 */
export const slipDateTime = (value: string | Date): string => formatDateTime(value, { year: true });
