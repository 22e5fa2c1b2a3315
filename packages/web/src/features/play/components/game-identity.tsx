import { Link } from 'react-router';
import { AlertTriangle, Globe, Printer } from 'lucide-react';
import { commitmentFingerprint } from '@lot/domain/draw';
import { gameTitle } from '@lot/domain/game';
import type { Game } from '@lot/domain/schemas/games';
import { protocolText } from '../../../lib/game/draw-protocol.ts';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/**
 * The game's name ("Game #N", its shop's game number), its public code and the fingerprint of the
 * server's commitment to its seed, shown from the moment it opens: a participant can note them and later check the game at /verify/{code}.
 */
export function GameIdentity({ game, theme }: { game: Game; theme: GameTheme }) {
  return (
    <dl
      aria-label="This game"
      className={`grid gap-x-6 gap-y-2 rounded-2xl px-4 py-3 sm:grid-cols-2 lg:grid-cols-1 ${theme.panel}`}
    >
      <div className="min-w-0">
        <dt data-testid="game-number" className={`text-xs font-semibold uppercase ${theme.muted}`}>
          {gameTitle(game.number)}
        </dt>
        <dd data-testid="game-code" className="font-mono text-lg font-bold break-all">
          {game.code}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className={`text-xs font-semibold uppercase ${theme.muted}`}>Seed fingerprint</dt>
        <dd
          data-testid="game-fingerprint"
          title={`Commitment ${game.commitment}`}
          className="font-mono text-lg font-bold tabular-nums"
        >
          {commitmentFingerprint(game.commitment)}
        </dd>
      </div>
      <div className="min-w-0 sm:col-span-2 lg:col-span-1">
        <dt className={`text-xs font-semibold uppercase ${theme.muted}`}>Randomness · {game.protocol}</dt>
        <dd data-testid="game-protocol" data-protocol={game.protocol} className="mt-0.5">
          <ProtocolLine game={game} />
        </dd>
      </div>
      {game.status !== 'discarded' && (
        // A list holds only term and value groups: the link is the value of a term read out alone.
        <div>
          <dt className="sr-only">Print</dt>
          <dd>
            <Link
              to={`/user/number-game/slips/${game.id}`}
              className={`inline-flex items-center gap-1.5 font-semibold underline underline-offset-4 ${theme.accent}`}
            >
              <Printer className="h-5 w-5" aria-hidden="true" />
              Slips
            </Link>
          </dd>
        </div>
      )}
    </dl>
  );
}

/**
 * How the game is drawn: LOT-DRAW-2 names its public randomness (the drand round once the draw
 * started); a LOT-DRAW-1 game carries its warning, the same words everywhere it is shown.
 */
function ProtocolLine({ game }: { game: Game }) {
  if (game.protocol === 'LOT-DRAW-2') {
    return (
      <span className="flex items-start gap-1.5 font-semibold">
        <Globe className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        {protocolText(game.protocol, game.beacon)}
      </span>
    );
  }
  return (
    <span className="flex items-start gap-1.5 rounded-lg bg-amber-100 px-2 py-1 text-sm font-semibold text-amber-950 ring-1 ring-amber-400">
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      {protocolText(game.protocol, game.beacon)}
    </span>
  );
}
