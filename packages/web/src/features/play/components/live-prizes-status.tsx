import { Loader2 } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { errorMessage } from '../../../lib/api-client.ts';
import type { useEffectiveWinners } from '../api/get-effective-winners.ts';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/** Before a game opens, Prize Distribution's note on the live winner settings: loading, failed, or none. */
export function LivePrizesStatus({
  winners,
  theme,
}: {
  winners: ReturnType<typeof useEffectiveWinners>;
  theme: GameTheme;
}) {
  if (winners.isPending) {
    return (
      <p role="status" className={`flex items-center gap-2 ${theme.muted}`}>
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> Loading prizes...
      </p>
    );
  }
  if (winners.isError) {
    return (
      <div role="alert" className="space-y-2">
        <p>{errorMessage(winners.error, 'Failed to fetch winner settings')}</p>
        <button
          type="button"
          onClick={() => void winners.refetch()}
          className={`rounded-lg px-3 py-1.5 font-semibold ${theme.secondary}`}
        >
          Try Again
        </button>
      </div>
    );
  }
  if (!winners.data.winners.some((w) => w.isActive)) return <p className={theme.muted}>{MESSAGES.noWinnerSettings}</p>;
  return null;
}
