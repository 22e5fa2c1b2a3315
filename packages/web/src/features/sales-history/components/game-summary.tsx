import type { ReactNode } from 'react';
import { Coins, Hash, ListChecks, Trophy, Wallet } from 'lucide-react';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { StatCard } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';

function Figure({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span data-testid={id} className="tabular-nums">
      {children}
    </span>
  );
}

/** docs/product/screens.md#game-winners: Number Range, Bet Amount, Total Prize, Commission, Selected Numbers. */
export function GameSummary({ game }: { game: SaleDetail }) {
  const icon = (Icon: typeof Hash) => <Icon className="h-5 w-5" aria-hidden="true" />;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-5">
      <StatCard
        label="Number Range"
        value={<Figure id="game-range">{`${game.startRange}-${game.endRange}`}</Figure>}
        icon={icon(Hash)}
      />
      <StatCard label="Bet Amount" value={<Figure id="game-bet">{money(game.betAmount)}</Figure>} icon={icon(Coins)} />
      <StatCard
        label="Total Prize"
        value={<Figure id="game-prize">{money(game.totalPrize)}</Figure>}
        hint={`of a ${money(game.gameData.totalPrizePool)} pool`}
        icon={icon(Trophy)}
      />
      <StatCard
        label="Commission"
        value={<Figure id="game-commission">{money(game.commission)}</Figure>}
        icon={icon(Wallet)}
      />
      <StatCard
        className="col-span-2 sm:col-span-1"
        label="Selected Numbers"
        value={<Figure id="game-selected">{game.selectedNumbersCount}</Figure>}
        hint={`${game.winningNumbersCount} won`}
        icon={icon(ListChecks)}
      />
    </div>
  );
}
