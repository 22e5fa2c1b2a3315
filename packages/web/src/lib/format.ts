import { formatDateTime } from '@lot/domain/dates';
import { decimalToCents, formatCents, formatMoney } from '@lot/domain/money';

/** Spec section 1: money with two decimals ($ on dashboards), dates en-US short month, day, time. */
export const money = (amount: string | number) => formatMoney(decimalToCents(amount));
export const amount = (value: string | number) => formatCents(decimalToCents(value));
export const dateTime = (value: string | Date) => formatDateTime(value);
/** A count on a dashboard: 1,234. */
export const count = (n: number) => n.toLocaleString('en-US');
