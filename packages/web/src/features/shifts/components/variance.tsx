import { decimalToCents, formatMoney } from '@lot/domain/money';

/** Counted − expected: short (less cash than expected) in red, over in amber, exact in green. */
export function varianceLabel(cents: number): { word: 'Short' | 'Over' | 'Exact'; tone: string } {
  if (cents < 0) return { word: 'Short', tone: 'text-rose-700' };
  if (cents > 0) return { word: 'Over', tone: 'text-amber-700' };
  return { word: 'Exact', tone: 'text-emerald-700' };
}

/** "Short $5.00", "Over $2.50" or "Exact": a shift's variance as a cashier says it. */
export function varianceText(cents: number): string {
  const { word } = varianceLabel(cents);
  return cents === 0 ? word : `${word} ${formatMoney(Math.abs(cents))}`;
}

/** A variance (a decimal from the API, or cents) in its colour; a dash when there is none (an open shift). */
export function Variance({ amount, testId }: { amount: string | number | null; testId?: string }) {
  if (amount === null) return <span className="text-slate-500">—</span>;
  const cents = typeof amount === 'number' ? amount : decimalToCents(amount);
  return (
    <span data-testid={testId} data-cents={cents} className={`font-semibold tabular-nums ${varianceLabel(cents).tone}`}>
      {varianceText(cents)}
    </span>
  );
}
