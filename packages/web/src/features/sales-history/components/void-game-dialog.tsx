import { useState } from 'react';
import { gameTitle } from '@lot/domain/game';
import { VOID_REASON_REQUIRED, type GameSummary } from '@lot/domain/schemas/games';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { voidGame } from '../api/void-game.ts';

/**
 * The reason's label and hint when a draw already named a winner (decision 094). Kept here, not in
 * `@lot/domain/messages`, which every first screen loads (decision 089): only this dialog shows them.
 */
export const AFTER_WINNER_LABEL = 'Why void it after the winner was announced?';
const AFTER_WINNER_HINT = 'The admin is told this game was voided after a winner, and the dashboards count it.';

/**
 * What the game's draws already told its customers: a winner named on the display and the play
 * screen, who will not be paid once the game is voided.
 */
function announcedText(game: GameSummary): string {
  const drawn = `${game.drawsCount} draw${game.drawsCount === 1 ? '' : 's'}`;
  const winners =
    game.winnersAnnounced === 1
      ? `a winner of ${money(game.prizesAnnounced)}`
      : `${game.winnersAnnounced} winners, ${money(game.prizesAnnounced)} in prizes`;
  return `Already announced: ${drawn} named ${winners}. Voiding takes ${game.winnersAnnounced === 1 ? 'it' : 'them'} back: tell the winners why.`;
}

/**
 * The upline voids a shop's frozen game, with a reason (required): the outcome was fixed at the
 * freeze, so voiding pays no prize and returns the held pool to the shop; the proof then shows the
 * draws the game would have made, and who voided it and why.
 */
export function VoidGameDialog({
  game,
  onClose,
  onVoided,
}: {
  /** The frozen game (null: closed). */
  game: GameSummary | null;
  onClose: () => void;
  onVoided: (game: GameSummary) => void;
}) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [winnerLearnt, setWinnerLearnt] = useState(false);
  const afterWinner = winnerLearnt || (game?.winnersAnnounced ?? 0) > 0;

  const forget = () => {
    setReason('');
    setReasonError(null);
    setWinnerLearnt(false);
  };

  return (
    <ConfirmDialog
      open={game !== null}
      title="Void game"
      size="md"
      confirmLabel="Void Game"
      pendingLabel="Voiding..."
      validate={() => {
        if (reason.trim() === '') setReasonError(VOID_REASON_REQUIRED);
        return reason.trim() !== '';
      }}
      onConfirm={async () => {
        if (!game) return null;
        try {
          await voidGame(game.id, reason.trim(), afterWinner);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'WINNER_ANNOUNCED') setWinnerLearnt(true);
          return errorMessage(error, 'The game could not be voided. Try again.');
        }
        forget();
        onVoided(game);
        return null;
      }}
      onClose={() => {
        forget();
        onClose();
      }}
    >
      {game && (
        <div className="space-y-3 text-slate-700">
          <p>
            Void <strong>{game.user.fullName}</strong>’s {gameTitle(game.number)} (
            <span className="font-mono text-sm break-all">{game.code}</span>)? Its draw has started, so its outcome is
            already fixed: voiding stops it, <strong>no prize is paid</strong>, and the pool of{' '}
            <strong>{money(game.pool)}</strong> held for it goes back to the shop. The game’s public proof will show the
            draws it would have made, and your role, name and reason.
          </p>
          {game.winnersAnnounced > 0 && (
            <p
              role="alert"
              data-testid="void-announced"
              className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900 ring-1 ring-amber-200"
            >
              {announcedText(game)}
            </p>
          )}
          <div>
            <label htmlFor="upline-void-reason" className="mb-1 block text-sm font-medium text-slate-700">
              {afterWinner ? AFTER_WINNER_LABEL : 'Reason'}
            </label>
            {afterWinner && (
              <p
                id="upline-void-reason-hint"
                data-testid="void-after-winner-hint"
                className="mb-1 text-xs text-slate-600"
              >
                {AFTER_WINNER_HINT}
              </p>
            )}
            <textarea
              id="upline-void-reason"
              rows={3}
              maxLength={500}
              value={reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={
                [afterWinner && 'upline-void-reason-hint', reasonError && 'upline-void-reason-error']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              onChange={(event) => {
                setReason(event.target.value);
                if (event.target.value.trim()) setReasonError(null);
              }}
              className="block w-full rounded-lg border-0 px-3 py-2 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
            />
            {reasonError && (
              <p id="upline-void-reason-error" role="alert" className="mt-1 text-sm text-rose-600">
                {reasonError}
              </p>
            )}
          </div>
        </div>
      )}
    </ConfirmDialog>
  );
}
