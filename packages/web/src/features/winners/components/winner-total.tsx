import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { formatBps, parsePercentToBps, totalPercentBps } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import type { Winner } from '@lot/domain/schemas/winners';

/** The share of a pool the whole configuration pays, in basis points (only active ones count). */
export function activeTotalBps(winners: readonly Winner[]): number {
  return totalPercentBps(winners.map((w) => ({ percentBps: parsePercentToBps(w.percent) ?? 0, isActive: w.isActive })));
}

/** docs/product/validation-and-errors.md: the total of active percentages, which should be 100%. */
export function WinnerTotal({ winners, scope }: { winners: readonly Winner[]; scope?: string }) {
  const total = activeTotalBps(winners);
  const active = winners.filter((w) => w.isActive).length;
  const tone =
    total > 10_000
      ? 'bg-rose-50 ring-rose-200 text-rose-800'
      : total < 10_000
        ? 'bg-amber-50 ring-amber-200 text-amber-800'
        : 'bg-emerald-50 ring-emerald-200 text-emerald-800';
  return (
    <section
      aria-label="Total percentage"
      className={`flex flex-col gap-3 rounded-2xl p-5 ring-1 sm:flex-row sm:items-center sm:justify-between ${tone}`}
    >
      <div>
        <p className="text-sm font-medium opacity-90">Total Percentage{scope ? ` · ${scope}` : ''}</p>
        <p data-testid="winner-total" className="text-3xl font-bold tracking-tight tabular-nums">
          {formatBps(total)}%
        </p>
        <p className="text-xs opacity-90">
          {active} active configuration{active === 1 ? '' : 's'}
        </p>
      </div>
      {total > 10_000 ? (
        <p role="status" className="flex items-center gap-2 text-sm font-semibold">
          <AlertTriangle className="h-5 w-5 shrink-0" aria-hidden="true" />
          {MESSAGES.totalOver}
        </p>
      ) : total < 10_000 ? (
        <p role="status" className="flex items-center gap-2 text-sm font-semibold">
          <Info className="h-5 w-5 shrink-0" aria-hidden="true" />
          {MESSAGES.totalUnder}
        </p>
      ) : (
        <p className="flex items-center gap-2 text-sm font-semibold">
          <CheckCircle2 className="h-5 w-5 shrink-0" aria-hidden="true" />
          Total is 100%
        </p>
      )}
    </section>
  );
}
