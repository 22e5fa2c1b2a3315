import { formatDateTime } from '@lot/domain/dates';
import { decimalToCents, formatCents, formatMoney, groupThousands } from '@lot/domain/money';

/** docs/product/screens.md#formats: money with two decimals ($ on dashboards), dates en-US short month, day, time. */
export const money = (amount: string | number) => formatMoney(decimalToCents(amount));
export const amount = (value: string | number) => formatCents(decimalToCents(value));
export const dateTime = (value: string | Date) => formatDateTime(value);
/** A count as en-US writes it: 12345 → "12,345". */
export const count = (value: number) => groupThousands(String(value));
