import { Maximize, Minimize } from 'lucide-react';
import { useFullscreen } from '../../lib/game/use-fullscreen.ts';
import type { GameTheme } from '../../lib/game/game-theme.ts';

/**
 * The big screens' fullscreen button (the play screen and the customer display), with the F key and
 * the 5-second hint shown on entering (docs/product/screens.md#game-play).
 */
export function FullscreenToggle({ theme }: { theme: GameTheme }) {
  const fullscreen = useFullscreen();
  return (
    <>
      <button
        type="button"
        onClick={fullscreen.toggle}
        aria-label={fullscreen.isFullscreen ? 'Exit fullscreen' : 'Enter fullscreen'}
        title="Fullscreen (F or F11)"
        className={`rounded-xl p-2.5 ${theme.secondary}`}
      >
        {fullscreen.isFullscreen ? (
          <Minimize className="h-6 w-6" aria-hidden="true" />
        ) : (
          <Maximize className="h-6 w-6" aria-hidden="true" />
        )}
      </button>
      {fullscreen.hint && (
        <p
          role="status"
          className="fixed top-4 left-1/2 z-50 -translate-x-1/2 rounded-full bg-black/80 px-5 py-2 text-lg font-semibold text-white shadow-lg"
        >
          Press F or Esc to exit fullscreen
        </p>
      )}
    </>
  );
}
