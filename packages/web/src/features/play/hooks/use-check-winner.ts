import { useRef, useState, type MouseEvent } from 'react';
import { MESSAGES } from '@lot/domain/messages';
import { decimalToCents } from '@lot/domain/money';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useDraw } from '../api/draw.ts';
import { isEnded } from '../api/games-cache.ts';
import { waitTitle } from '../../../components/game/beacon-wait-view.tsx';
import { ANOTHER_SCREEN, GAME_SAVED } from '../components/play-texts.ts';
import type { DrawnWinner } from '../components/winner-modal.tsx';
import { useDrawFlow } from './use-draw-flow.ts';

/**
 * Check Winner: asks the server for the next draw (the first one freezes the game and holds the
 * pool; a LOT-DRAW-2 draw then waits for its beacon round, asked again by `useDrawFlow`), shows
 * each winner's popup, and says the game is saved once the last draw settled it.
 */
export function useCheckWinner({
  game,
  heldGame,
  reload,
  onMoneyChanged,
}: {
  game: Game | null;
  heldGame: () => Game | null;
  reload: () => void;
  onMoneyChanged: () => void;
}) {
  const toast = useToast();
  const drawCall = useDraw();
  const [winner, setWinner] = useState<DrawnWinner | null>(null);

  /** A draw the server made: its winner's popup, and the game saved once the last one settled it. */
  const showDraw = (result: DrawResult) => {
    onMoneyChanged();
    const prize = result.game.prizes.find((p) => p.position === result.position);
    if (result.winner && prize) {
      setWinner({ ...result.winner, prizeName: prize.name, prizeAmount: decimalToCents(result.prizeAmount) });
    }
    if (result.game.status === 'settled') toast.success(GAME_SAVED);
  };

  const flow = useDrawFlow({
    game,
    busy: drawCall.isPending,
    draw: drawCall.mutateAsync,
    onDrawn: showDraw,
    onGone: (error) => {
      toast.error(error.message || ANOTHER_SCREEN);
      reload();
    },
  });
  const wait = flow.wait;

  // One draw at a time, for the position after the last one the server answered: a fast double
  // click (its second click) is ignored, and a resent request asks for the same position again.
  const drawing = useRef(false);
  const checkWinner = async (event: MouseEvent) => {
    if (event.detail > 1 || drawing.current) return;
    const current = heldGame();
    if (!current || current.entries.length === 0) return toast.error(MESSAGES.noNumbersSelected);
    if (current.prizes.length === 0) return toast.error(MESSAGES.noWinnerSettings);
    if (current.status === 'settled' || current.draws.length >= current.prizes.length) {
      return toast.error(MESSAGES.allWinnersDrawn);
    }
    if (isEnded(current)) return toast.error(`This game was ${current.status}.`);
    if (wait) return toast.error(`${waitTitle(wait.round)} The draw follows by itself.`);
    const position = current.draws.length + 1;
    drawing.current = true;
    try {
      const answer = await drawCall.mutateAsync({ gameId: current.id, position });
      if (answer.kind === 'drawn') showDraw(answer.result);
      else {
        // Frozen: the pool is held, and the draw waits for its round.
        onMoneyChanged();
        flow.noteWaiting(current.id, answer.waiting);
      }
    } catch (error) {
      toast.error(errorMessage(error, 'The draw did not go through. Please try again.'));
      if (error instanceof ApiError && error.status === 409) reload();
    } finally {
      drawing.current = false;
    }
  };

  return {
    checkWinner,
    wait,
    drawing: drawCall.isPending,
    winner,
    closeWinner: () => setWinner(null),
  };
}
