import type { MouseEvent } from 'react';
import { Loader2, RotateCcw } from 'lucide-react';
import type { BeaconWait } from '../../../lib/game/beacon-wait.ts';
import { BeaconWaitView } from '../../../components/game/beacon-wait-view.tsx';
import type { GameTheme } from '../../../lib/game/game-theme.ts';
import { WAIT_NOTE } from './play-texts.ts';

/**
 * Check Winner and Reset Game (New Game once the game ended; none once the outcome is fixed), kept
 * in view (docs/product/screens.md#game-play): on a phone a bar fixed at the foot of the screen, on
 * a wide screen the foot of the side column, held at the bottom of the window while the column is
 * longer. The wait for the beacon round shows above the buttons, so the button never moves.
 */
export function PlayActions({
  label,
  disabled,
  pending,
  wait,
  reset,
  resetDisabled,
  theme,
  onCheck,
  onReset,
}: {
  label: string;
  disabled: boolean;
  pending: boolean;
  wait: BeaconWait | null;
  /** The reset button's text, or null for none. */
  reset: string | null;
  resetDisabled: boolean;
  theme: GameTheme;
  onCheck: (event: MouseEvent) => void;
  onReset: () => void;
}) {
  return (
    <div
      data-testid="play-actions"
      className={`fixed inset-x-0 bottom-0 z-20 flex flex-col gap-2 border-t border-current/20 px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.25)] lg:sticky lg:z-10 lg:gap-3 lg:border-0 lg:px-0 lg:shadow-none ${theme.page}`}
    >
      {wait && <BeaconWaitView wait={wait} theme={theme} size="play" note={WAIT_NOTE} />}
      <div className="flex gap-2 lg:flex-col lg:gap-3">
        <button
          type="button"
          onClick={onCheck}
          aria-disabled={disabled}
          aria-busy={pending || wait !== null}
          className={`inline-flex min-w-0 flex-1 items-center justify-center gap-3 rounded-2xl px-4 py-3 text-xl font-black shadow-lg sm:text-3xl lg:px-6 lg:py-4 ${theme.primary} ${
            disabled ? 'cursor-not-allowed opacity-50' : ''
          }`}
        >
          {(pending || wait) && <Loader2 className="h-7 w-7 shrink-0 animate-spin" aria-hidden="true" />}
          {label}
        </button>
        {reset && (
          <button
            type="button"
            onClick={onReset}
            disabled={resetDisabled}
            title={reset}
            className={`inline-flex shrink-0 items-center justify-center gap-2 min-w-14 rounded-2xl px-4 py-3 text-base font-bold disabled:opacity-50 sm:text-lg lg:px-6 ${theme.secondary}`}
          >
            <RotateCcw className="h-5 w-5" aria-hidden="true" />
            {/* On a phone the icon alone, so Check Winner keeps one line; its name stays the same. */}
            <span className="max-sm:sr-only">{reset}</span>
          </button>
        )}
      </div>
    </div>
  );
}
