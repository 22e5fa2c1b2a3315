import { AlertTriangle } from 'lucide-react';
import type { Cents } from '@lot/domain/money';
import { poolOverBalance } from './play-texts.ts';

/** Said near the entries while the pool is more than the balance and the draw has not started. */
export function PoolWarning({ poolCents, balanceCents }: { poolCents: Cents; balanceCents: Cents | null }) {
  if (balanceCents === null || poolCents <= balanceCents) return null;
  return (
    <p
      role="alert"
      data-testid="pool-over-balance"
      className="flex items-start gap-2 rounded-2xl bg-amber-100 p-4 font-semibold text-amber-950 ring-2 ring-amber-400"
    >
      <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <span>{poolOverBalance(poolCents, balanceCents)}</span>
    </p>
  );
}
