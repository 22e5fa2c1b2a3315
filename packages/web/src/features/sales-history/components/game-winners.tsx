import type { ReactNode } from 'react';
import { Phone, Trophy } from 'lucide-react';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { EmptyState } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';

const MEDAL = ['bg-amber-400 text-amber-950', 'bg-slate-300 text-slate-800', 'bg-orange-300 text-orange-950'];

/**
 * docs/product/screens.md#game-winners: the game's winners by position, with name, phone and prize;
 * `claimOf` adds where each prize's claim stands (the screen composes it from the claims feature).
 */
export function GameWinners({
  winners,
  claimOf,
}: {
  winners: SaleDetail['winners'];
  claimOf?: (winnerId: number) => ReactNode;
}) {
  if (winners.length === 0) return <EmptyState message="No winners in this game." />;
  const sorted = [...winners].sort((a, b) => a.position - b.position || a.id - b.id);
  return (
    <ol className="divide-y divide-slate-100 overflow-hidden rounded-xl ring-1 ring-slate-200">
      {sorted.map((winner) => (
        <li
          key={winner.id}
          data-testid="game-winner"
          className="flex flex-wrap items-center gap-x-4 gap-y-2 bg-white px-4 py-3 sm:flex-nowrap"
        >
          <span
            aria-label={`Position ${winner.position}`}
            className={`inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
              MEDAL[winner.position - 1] ?? 'bg-indigo-100 text-indigo-800'
            }`}
          >
            {winner.position}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold text-slate-900" data-testid="winner-name">
              {winner.name}
            </p>
            <p className="flex items-center gap-1 text-sm text-slate-500">
              <Phone className="h-3.5 w-3.5" aria-hidden="true" />
              <span data-testid="winner-phone">{winner.phoneNumber}</span>
            </p>
            {claimOf?.(winner.id)}
          </div>
          <span className="inline-flex items-center gap-1 rounded-md bg-amber-50 px-2 py-1 text-sm font-semibold text-amber-800 ring-1 ring-amber-200 ring-inset">
            <Trophy className="h-3.5 w-3.5" aria-hidden="true" />
            No. <span data-testid="winner-number">{winner.number}</span>
          </span>
          <span
            data-testid="winner-prize"
            className="ml-auto text-right text-base font-bold text-emerald-700 tabular-nums sm:w-32"
          >
            {money(winner.prizeAmount)}
          </span>
        </li>
      ))}
    </ol>
  );
}
