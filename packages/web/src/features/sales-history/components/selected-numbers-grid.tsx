import { Trophy } from 'lucide-react';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { EmptyState } from '../../../components/ui/panels.tsx';

/**
 * docs/product/screens.md#game-winners: every number the players picked, the winning ones highlighted with their
 * position; under it the numbers in the order they were drawn (a drawn number nobody picked paid
 * nobody).
 */
export function SelectedNumbersGrid({ game }: { game: SaleDetail }) {
  const { selectedNumbers, winningNumbers } = game.gameData;
  if (selectedNumbers.length === 0) return <EmptyState message="No detailed data available" />;
  const positionOf = new Map(game.winners.map((winner) => [winner.number, winner.position]));
  const picked = new Set(selectedNumbers.map((entry) => entry.number));
  const numbers = [...selectedNumbers].sort((a, b) => a.number - b.number);
  return (
    <div className="space-y-4">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4 2xl:grid-cols-6">
        {numbers.map((entry) => {
          const position = positionOf.get(entry.number);
          const won = position !== undefined;
          return (
            <li
              key={entry.number}
              data-testid="selected-number"
              data-number={entry.number}
              data-winning={won ? 'true' : 'false'}
              className={`flex min-w-0 items-center gap-3 rounded-xl px-3 py-2.5 ring-1 ${
                won ? 'bg-amber-50 ring-2 ring-amber-400' : 'bg-white ring-slate-200'
              }`}
            >
              <span
                className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-base font-bold tabular-nums ${
                  won ? 'bg-amber-400 text-amber-950' : 'bg-slate-100 text-slate-700'
                }`}
              >
                {entry.number}
              </span>
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-slate-900">{entry.name}</span>
                <span className="block truncate text-xs text-slate-500">{entry.phoneNumber}</span>
                {won && (
                  <span className="mt-0.5 inline-flex items-center gap-1 text-xs font-semibold text-amber-800">
                    <Trophy className="h-3 w-3" aria-hidden="true" />
                    Position {position}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {winningNumbers.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4 text-sm text-slate-600">
          <span className="font-medium text-slate-700">Drawn, in order:</span>
          {winningNumbers.map((number, index) => (
            <span
              key={`${index}-${number}`}
              data-testid="drawn-number"
              title={picked.has(number) ? 'Picked by a player' : 'Nobody picked it'}
              className={`inline-flex items-center rounded-md px-2 py-0.5 font-semibold tabular-nums ring-1 ring-inset ${
                positionOf.has(number)
                  ? 'bg-amber-50 text-amber-800 ring-amber-300'
                  : 'bg-slate-50 text-slate-500 ring-slate-200'
              }`}
            >
              {number}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
