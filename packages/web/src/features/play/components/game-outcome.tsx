import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { normalizeRole, ROLE_LABELS } from '@lot/domain/roles';
import type { Game } from '@lot/domain/schemas/games';
import type { GameTheme } from '../../../lib/game/game-theme.ts';
import { GAME_SAVED } from './play-texts.ts';

/** How the game on screen ended: saved (with the way to verify it), or voided / discarded elsewhere. */
export function GameOutcome({ game, theme }: { game: Game; theme: GameTheme }) {
  if (game.status === 'settled') {
    return (
      <div role="status" data-testid="game-saved" className={`space-y-2 rounded-2xl px-4 py-3 ${theme.panel}`}>
        <p className="text-lg font-semibold">{GAME_SAVED}.</p>
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          <Link
            to={`/verify/${game.code}`}
            className={`inline-flex items-center gap-1.5 font-semibold underline underline-offset-4 ${theme.accent}`}
          >
            <ShieldCheck className="h-5 w-5" aria-hidden="true" />
            Verify this game
          </Link>
          {game.saleId !== null && (
            <Link to={`/game-winners/${game.saleId}`} className="font-semibold underline underline-offset-4">
              View in Game History
            </Link>
          )}
        </p>
      </div>
    );
  }
  const voider = game.voidedBy;
  // Its upline or an admin ends a frozen game; the shop itself only discards one before the draw.
  const by = voider
    ? ` by ${voider.role === 'user' ? '' : `${ROLE_LABELS[normalizeRole(voider.role)]} `}${voider.fullName}`
    : '';
  return (
    <div role="status" data-testid="game-ended" className="rounded-2xl bg-rose-50 px-4 py-3 text-rose-900">
      <p className="text-lg font-semibold">
        This game was {game.status}
        {by}.
      </p>
      {game.voidReason && <p>Reason: {game.voidReason}</p>}
      <p className="text-sm">Start a New Game to play again.</p>
    </div>
  );
}
