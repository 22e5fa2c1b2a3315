import { Loader2, SearchX } from 'lucide-react';
import { useGameStream } from '../hooks/use-game-stream.ts';
import { usePins } from '../../../lib/game/use-pins.ts';
import { DisplayBoard } from './display-board.tsx';
import { DisplayHeader } from './display-header.tsx';
import { GAME_THEMES, type GameTheme, type ThemeName } from '../../../lib/game/game-theme.ts';
import './display-page.css';

/**
 * The customer display (/display/{code}, no sign-in; docs/product/game.md#customer-display): a
 * second screen facing the customers that follows one game live. It only shows what the server
 * publishes for anyone (names and phones masked) and, once the game is settled, re-checks the
 * proof in this browser before it says Verified.
 */
export function DisplayPage({ code, themeName }: { code: string; themeName: ThemeName }) {
  const theme = GAME_THEMES[themeName];
  const { proof, connection } = useGameStream(code);
  const { pins } = usePins();

  return (
    <div className={`flex min-h-screen flex-col ${theme.page}`} data-theme={themeName} data-testid="display">
      <DisplayHeader proof={proof} connection={connection} theme={theme} />

      {connection === 'missing' ? (
        <NoSuchGame code={code} theme={theme} />
      ) : proof === null ? (
        <p role="status" className="flex flex-1 items-center justify-center gap-4 text-2xl font-semibold sm:text-4xl">
          <Loader2 className="h-10 w-10 animate-spin" aria-hidden="true" /> Connecting to the game...
        </p>
      ) : (
        // A new key per game keeps the draw animation from treating another game's draws as new.
        <DisplayBoard key={proof.code} proof={proof} pins={pins} theme={theme} />
      )}
    </div>
  );
}

function NoSuchGame({ code, theme }: { code: string; theme: GameTheme }) {
  return (
    <section
      data-testid="display-missing"
      className={`mx-4 my-10 flex flex-col items-center gap-4 rounded-3xl p-10 text-center sm:mx-auto sm:max-w-2xl ${theme.panel}`}
    >
      <SearchX className="h-16 w-16" aria-hidden="true" />
      <h2 className="text-3xl font-black sm:text-5xl">No game with this code</h2>
      <p className={`text-lg sm:text-2xl ${theme.muted}`}>
        There is no game <span className="font-mono font-bold break-all">{code}</span>. Open the customer display again
        from the shop&apos;s game screen.
      </p>
    </section>
  );
}
