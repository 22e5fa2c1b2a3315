import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { GAME_RULES, type Participant } from '@lot/domain/game';
import { decimalToCents } from '@lot/domain/money';
import type { Game } from '@lot/domain/schemas/games';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { holdGame, isEnded, playGameQueryKey } from '../api/games-cache.ts';
import { useCurrentGameQuery } from '../api/get-current-game.ts';
import { useOpenGame, type GameSetup } from '../api/open-game.ts';
import { usePutEntries } from '../api/put-entries.ts';
import { useVoidGame, VOID_REASONS } from '../api/void-game.ts';
import { ANOTHER_SCREEN, OUTCOME_FIXED } from '../components/play-texts.ts';
import type { ResetMode } from '../components/reset-dialog.tsx';

const DEFAULT_SETUP: GameSetup = {
  startRange: GAME_RULES.defaultStart,
  endRange: GAME_RULES.defaultEnd,
  betCents: GAME_RULES.defaultBetCents,
};

/** Keys the play screen kept in this browser before the server ran the game; nothing reads them now. */
const LEFTOVER_KEYS = ['numberGame', 'selectedNumbers', 'betAmount'];

export const setupOf = (game: Game): GameSetup => ({
  startRange: game.startRange,
  endRange: game.endRange,
  betCents: decimalToCents(game.betAmount),
});

/**
 * The play screen's game and what the operator does to it before the draw (docs/decisions/013):
 * saving the first participant opens it, every change of the list replaces it on the server, a
 * change of range or bet discards an empty one, Reset discards it (before the freeze). Drawing is
 * `useCheckWinner`'s.
 */
export function usePlayGame() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const play = useCurrentGameQuery();
  const openCall = useOpenGame();
  const entriesCall = usePutEntries();
  const voidCall = useVoidGame();
  const [setup, setSetup] = useState<GameSetup>(DEFAULT_SETUP);
  const [picking, setPicking] = useState<number | null>(null);
  const [resetMode, setResetMode] = useState<ResetMode | null>(null);

  useEffect(() => LEFTOVER_KEYS.forEach((key) => localStorage.removeItem(key)), []);
  // Leaving the screen after a game ended: the next visit starts on a fresh board.
  useEffect(
    () => () => {
      const held = queryClient.getQueryData<Game | null>(playGameQueryKey);
      if (held && isEnded(held)) holdGame(queryClient, null);
    },
    [queryClient],
  );

  const game = play.data ?? null;
  const entries = useMemo(() => game?.entries ?? [], [game]);

  // The range and bet fields are drafts of their own: they start again from what is shown when a
  // different game comes on screen (or after a reset), never while the operator is typing.
  const gameId = game?.id ?? null;
  const [seenGameId, setSeenGameId] = useState(gameId);
  const [setupVersion, setSetupVersion] = useState(0);
  if (gameId !== seenGameId) {
    setSeenGameId(gameId);
    if (gameId !== null) setSetupVersion((v) => v + 1);
  }

  /** The game as the server last answered it (not as the last render saw it). */
  const heldGame = useCallback(() => queryClient.getQueryData<Game | null>(playGameQueryKey) ?? null, [queryClient]);

  /** Another screen changed the game (a 409): show the game as the server has it now. */
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: playGameQueryKey });
  }, [queryClient]);

  // Range and bet: before the first participant they are only this screen's; an open game without
  // participants (all removed) is discarded when they change, and the next participant opens a new one.
  const discarding = useRef<number | null>(null);
  const changeSetup = (next: GameSetup) => {
    setSetup(next);
    const current = heldGame();
    if (!current || isEnded(current) || current.entries.length > 0 || discarding.current === current.id) return;
    const same =
      current.startRange === next.startRange &&
      current.endRange === next.endRange &&
      decimalToCents(current.betAmount) === next.betCents;
    if (same) return;
    discarding.current = current.id;
    voidCall.mutate(
      { gameId: current.id, reason: VOID_REASONS.setupChanged },
      {
        onSuccess: () => {
          if (heldGame()?.id === current.id) holdGame(queryClient, null);
        },
        onError: (error) => {
          toast.error(errorMessage(error, 'Could not change the range or bet.'));
          reload();
        },
        onSettled: () => {
          discarding.current = null;
        },
      },
    );
  };

  /** Sends the whole list; opens the game first when there is none. Answers the failure to show, or null. */
  const sendEntries = async (change: (list: Participant[]) => Participant[]): Promise<string | null> => {
    let current = heldGame();
    try {
      if (current && isEnded(current)) return 'This game has ended. Start a New Game to add participants.';
      if (!current) current = await openCall.mutateAsync(setup);
      await entriesCall.mutateAsync({ gameId: current.id, entries: change(current.entries) });
      setPicking(null);
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // Another screen opened a game or drew from this one: show it as it is now.
        if (!current || heldGame() === null) holdGame(queryClient, null);
        reload();
        return `${error.message}. ${ANOTHER_SCREEN}`;
      }
      return errorMessage(error, 'The participant could not be saved.');
    }
  };

  // A corrected participant keeps their place in the list; a new one joins at the end.
  const saveParticipant = (participant: Participant) =>
    sendEntries((list) =>
      list.some((p) => p.number === participant.number)
        ? list.map((p) => (p.number === participant.number ? participant : p))
        : [...list, participant],
    );
  const removeParticipant = (number: number) => sendEntries((list) => list.filter((p) => p.number !== number));

  /** A fresh board: the range stays for the next game, the bet goes back to the default. */
  const freshBoard = () => {
    const current = heldGame();
    setSetup({ ...(current ? setupOf(current) : setup), betCents: GAME_RULES.defaultBetCents });
    holdGame(queryClient, null);
    setSetupVersion((v) => v + 1);
    setResetMode(null);
  };

  const askReset = () => {
    const current = heldGame();
    if (current && isEnded(current)) return freshBoard();
    if (current?.status === 'drawing') return toast.error(OUTCOME_FIXED);
    setResetMode(current ? 'before-draw' : 'setup');
  };

  /** Before the freeze the game is only discarded; after it the server refuses (403) and says why. */
  const confirmReset = async (): Promise<string | null> => {
    const current = heldGame();
    if (!current || isEnded(current)) {
      freshBoard();
      return null;
    }
    try {
      await voidCall.mutateAsync({ gameId: current.id, reason: VOID_REASONS.reset });
    } catch (error) {
      // Another screen started the draw (403) or ended the game (409): show it as it is now.
      if (error instanceof ApiError && (error.status === 403 || error.status === 409)) reload();
      return errorMessage(error, 'The game could not be reset.');
    }
    freshBoard();
    return null;
  };

  return {
    play,
    game,
    entries,
    heldGame,
    reload,
    setup: game ? setupOf(game) : setup,
    setupVersion,
    changeSetup,
    picking,
    setPicking,
    saveParticipant,
    removeParticipant,
    resetMode,
    closeReset: () => setResetMode(null),
    askReset,
    confirmReset,
    // Calls that change the game: the buttons wait for them. Discarding an empty game after a
    // change of range or bet is left out, so the fields being typed in never switch off under the operator.
    entriesBusy: openCall.isPending || entriesCall.isPending,
    voidBusy: voidCall.isPending,
  };
}
