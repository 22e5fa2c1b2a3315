import { Ban, Gamepad2, Undo2, Wallet } from 'lucide-react';
import { StatCard } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';

/** Total Games and Total Commission over the whole filtered set, not just the page shown. */
export function SalesTotals({
  totalGames,
  totalCommission,
  failed = false,
}: {
  totalGames?: number;
  totalCommission?: string;
  /** The list failed to load: the totals say so ('—') instead of waiting forever. */
  failed?: boolean;
}) {
  const pending = failed ? '—' : '…';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <StatCard
        label="Total Games"
        value={<span data-testid="total-games">{totalGames ?? pending}</span>}
        icon={<Gamepad2 className="h-5 w-5" aria-hidden="true" />}
      />
      <StatCard
        label="Total Commission"
        value={<span data-testid="total-commission">{totalCommission ? money(totalCommission) : pending}</span>}
        icon={<Wallet className="h-5 w-5" aria-hidden="true" />}
      />
    </div>
  );
}

/** The Voided games tab's totals over the whole filtered set: how many games, and the pools returned. */
export function VoidedTotals({
  totalGames,
  totalPool,
  failed = false,
}: {
  totalGames?: number;
  totalPool?: string;
  failed?: boolean;
}) {
  const pending = failed ? '—' : '…';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <StatCard
        label="Voided Games"
        value={<span data-testid="voided-total-games">{totalGames ?? pending}</span>}
        icon={<Ban className="h-5 w-5" aria-hidden="true" />}
      />
      <StatCard
        label="Pools Returned"
        value={<span data-testid="voided-total-pool">{totalPool ? money(totalPool) : pending}</span>}
        icon={<Undo2 className="h-5 w-5" aria-hidden="true" />}
      />
    </div>
  );
}
