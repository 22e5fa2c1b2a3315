import { Ban, Gamepad2, Undo2, Wallet, type LucideIcon } from 'lucide-react';
import { StatCard } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';

type Total = { label: string; testId: string; icon: LucideIcon };

/** What each tab's two totals are called: Played counts games and commission, Voided games counts games and the pools returned. */
const TOTALS: Record<'played' | 'voided', { games: Total; amount: Total }> = {
  played: {
    games: { label: 'Total Games', testId: 'total-games', icon: Gamepad2 },
    amount: { label: 'Total Commission', testId: 'total-commission', icon: Wallet },
  },
  voided: {
    games: { label: 'Voided Games', testId: 'voided-total-games', icon: Ban },
    amount: { label: 'Pools Returned', testId: 'voided-total-pool', icon: Undo2 },
  },
};

/** A history tab's two totals over the whole filtered set, not just the page shown. */
export function SalesTotals({
  view,
  totalGames,
  totalAmount,
  failed = false,
}: {
  view: keyof typeof TOTALS;
  totalGames?: number;
  /** The commission (Played) or the pools returned (Voided games). */
  totalAmount?: string;
  /** The list failed to load: the totals say so ('—') instead of waiting forever. */
  failed?: boolean;
}) {
  const pending = failed ? '—' : '…';
  const { games, amount } = TOTALS[view];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <StatCard
        label={games.label}
        value={<span data-testid={games.testId}>{totalGames ?? pending}</span>}
        icon={<games.icon className="h-5 w-5" aria-hidden="true" />}
      />
      <StatCard
        label={amount.label}
        value={<span data-testid={amount.testId}>{totalAmount ? money(totalAmount) : pending}</span>}
        icon={<amount.icon className="h-5 w-5" aria-hidden="true" />}
      />
    </div>
  );
}
