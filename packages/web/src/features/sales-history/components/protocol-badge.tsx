import { Globe2, ShieldAlert } from 'lucide-react';
import type { GameSummary } from '@lot/domain/schemas/games';

/** The label every LOT-DRAW-1 game carries wherever it is shown (decision 033). */
import { SERVER_RANDOMNESS_ONLY } from '@lot/domain/draw';

/** The protocol of a game: LOT-DRAW-2's public randomness, or LOT-DRAW-1 labelled for what it is. */
export function ProtocolBadge({ protocol }: { protocol: GameSummary['protocol'] }) {
  if (protocol === 'LOT-DRAW-2')
    return (
      <span data-testid="protocol" data-protocol={protocol} className="inline-flex items-center gap-1.5 text-slate-700">
        <Globe2 className="h-4 w-4 shrink-0 text-indigo-600" aria-hidden="true" />
        <span>
          <span className="font-semibold">LOT-DRAW-2</span>
          <span className="block text-xs text-slate-500">Public randomness</span>
        </span>
      </span>
    );
  return (
    <span data-testid="protocol" data-protocol={protocol} className="inline-flex items-start gap-1.5 text-amber-900">
      <ShieldAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" aria-hidden="true" />
      <span>
        <span className="font-semibold">LOT-DRAW-1</span>
        <span className="block text-xs">{SERVER_RANDOMNESS_ONLY}</span>
      </span>
    </span>
  );
}
