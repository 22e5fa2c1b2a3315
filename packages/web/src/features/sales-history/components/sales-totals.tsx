import { Gamepad2, Wallet } from 'lucide-react';
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
