import { formatDateTime } from '@lot/domain/dates';
import { decimalToCents, formatCents, formatMoney, groupThousands } from '@lot/domain/money';

/** docs/product/screens.md#formats: money with two decimals ($ on dashboards), dates en-US short month, day, time. */
export const money = (amount: string | number) => formatMoney(decimalToCents(amount));
export const amount = (value: string | number) => formatCents(decimalToCents(value));
export const dateTime = (value: string | Date) => formatDateTime(value);
/** A date kept on paper (a payout receipt): with its year, `Nov 22, 2026, 4:05 PM`. */
export const dateTimeWithYear = (value: string | Date) => formatDateTime(value, { year: true });
/** A count as en-US writes it: 12345 → "12,345". */
export const count = (value: number) => groupThousands(String(value));
