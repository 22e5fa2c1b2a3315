import { gameTitle } from '@lot/domain/game';
import type { GameProof } from '@lot/domain/schemas/games';
import type { StreamConnection } from '../hooks/use-game-stream.ts';
import { FullscreenToggle } from '../../../components/game/fullscreen-toggle.tsx';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/** The customer display's top line: the shop and its game number, the title, whether the screen is live. */
export function DisplayHeader({
  proof,
  connection,
  theme,
}: {
  proof: GameProof | null;
  connection: StreamConnection;
  theme: GameTheme;
}) {
  return (
    <header className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-8 sm:py-5">
      <div className="min-w-0 flex-1">
        <p
          data-testid="display-shop"
          className="truncate text-2xl font-bold sm:text-4xl 2xl:text-5xl"
          title={proof?.shopName}
        >
          {proof?.shopName ?? ''}
        </p>
        {proof && (
          <p data-testid="display-game-number" className="text-lg font-bold sm:text-2xl 2xl:text-3xl">
            {gameTitle(proof.number)}
          </p>
        )}
      </div>
      <h1 className="order-first w-full text-center text-2xl font-black tracking-[0.3em] sm:order-none sm:w-auto sm:text-5xl 2xl:text-6xl">
        BOCH BOCH
      </h1>
      <div className="flex items-center justify-end gap-3 sm:flex-1">
        <ConnectionStatus connection={connection} theme={theme} />
        <FullscreenToggle theme={theme} />
      </div>
    </header>
  );
}

/** Small and out of the way: the customers need the game, the shop needs to see the screen is live. */
function ConnectionStatus({ connection, theme }: { connection: StreamConnection; theme: GameTheme }) {
  if (connection === 'missing' || connection === 'ended') return null;
  const live = connection === 'live';
  return (
    <p
      role="status"
      data-testid="display-connection"
      data-connection={connection}
      className={`flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold sm:text-base ${theme.panel}`}
    >
      <span
        aria-hidden="true"
        className={`h-2.5 w-2.5 rounded-full ${live ? 'bg-emerald-400' : 'animate-pulse bg-amber-400'}`}
      />
      {live ? 'Live' : connection === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
    </p>
  );
}
