/**
 * Money is integer cents everywhere in code and storage; the API speaks decimal strings with
 * two places. Floating point never touches an amount: inputs are parsed from their decimal text.
 */
export type Cents = number;

/** 1,000,000,000.00 — the largest single amount the API accepts (docs/product/money.md#amount-input). */
export const MAX_AMOUNT_CENTS: Cents = 100_000_000_000;

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** The text of a number as typed or sent: a finite JSON number's decimal form, a trimmed string, else ''. */
export function decimalText(input: unknown): string {
  if (typeof input === 'number') return Number.isFinite(input) ? String(input) : '';
  return typeof input === 'string' ? input.trim() : '';
}

/** Parses a positive amount (JSON number or string, at most two decimals) into cents, or null. */
export function parseAmountToCents(input: unknown): Cents | null {
  const text = decimalText(input);
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A plain decimal with more than two places ("2.555", 0.001): a number the person meant, so they
 * are told about the decimals rather than that it is not an amount.
 */
export function hasTooManyDecimals(input: unknown): boolean {
  return /^\d+\.\d{3,}$/.test(decimalText(input));
}

/** Formats cents as a decimal string with two places: 125000 → "1250.00". */
export function formatCents(cents: Cents | bigint): string {
  const value = BigInt(cents);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Converts an API decimal (a string, or a number from older clients: docs/product/money.md#display) back to cents. */
export function decimalToCents(value: string | number): Cents {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const negative = text.startsWith('-');
  const cents = parseAmountToCents(negative ? text.slice(1) : text);
  if (cents === null) throw new Error(`Not a decimal amount: ${String(value)}`);
  return negative ? -cents : cents;
}

/**
 * Digits grouped by thousands as en-US writes them: "1234567" → "1,234,567". By hand rather than
 * with `Intl`, whose first use in a page loads the browser's locale data (30 ms and more).
 */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Money as a person reads it on a dashboard: "$1,250.00". */
export function formatMoney(cents: Cents | bigint): string {
  const [whole = '0', fraction = '00'] = formatCents(cents).split('.');
  const negative = whole.startsWith('-');
  return `${negative ? '-' : ''}$${groupThousands(negative ? whole.slice(1) : whole)}.${fraction}`;
}
