import { useCallback, useMemo, useState, type MouseEvent } from 'react';
import { numbersLeft, parsePercentToBps, totalPercentBps, type Participant } from '@lot/domain/game';
import { decimalToCents, type Cents } from '@lot/domain/money';
import type { Game } from '@lot/domain/schemas/games';
import { useToast } from '../../../components/ui/toast.tsx';
import type { NamesView } from '../../../components/game/names-privacy.tsx';
import { GAME_THEMES, loadTheme, saveTheme, type ThemeName } from '../../../lib/game/game-theme.ts';
import { isEnded } from '../api/games-cache.ts';
import { useEffectiveWinners } from '../api/get-effective-winners.ts';
import type { PrizeLine } from '../components/game-panels.tsx';
import { ALL_NUMBERS_SELECTED, entryOverBalance } from '../components/play-texts.ts';
import { useCheckWinner } from './use-check-winner.ts';
import { usePlayGame } from './use-play-game.ts';

/**
 * Where the game on the play screen stands, in the order the operator meets them:
 * - `loading`: the first answer of GET /api/games/current has not come; `failed`: it did not come
 *   (offline, or the server failed) and there is nothing to show;
 * - `none`: no game yet (the first participant saved opens one); `open`: a game without
 *   participants; `entries`: a game taking participants (range and bet locked);
 * - `waiting`: frozen, the next draw waits for its beacon round; `drawing`: frozen, drawing;
 * - `settled`: every prize drawn; `voided`: reset, voided or discarded.
 */
export type GameState =
  'loading' | 'failed' | 'none' | 'open' | 'entries' | 'waiting' | 'drawing' | 'settled' | 'voided';

/**
 * Prints a participant's entry slip of the game on this device's paper (the slips feature's printer,
 * which the route hands the screen): answers the failure to show (nothing printed), or null.
 */
export type PrintEntrySlip = (game: Game, number: number) => Promise<string | null>;

/**
 * The play screen's game as one state machine (docs/decisions/013): the game the server holds
 * (`usePlayGame`), its draws (`useCheckWinner`), the prizes it will pay, and what the screen shows
 * and lets the operator do in each `GameState`. `PlayScreen` only lays it out. `onMoneyChanged`
 * runs when a draw or a void moved money; `printSlip` prints a customer's slip, so the sale is
 * done on this screen (saved and printed at once, or printed again from the entries).
 */
export function useGameController({
  balanceCents,
  onMoneyChanged,
  printSlip,
}: {
  balanceCents: Cents | null;
  onMoneyChanged: () => void;
  printSlip: PrintEntrySlip;
}) {
  const toast = useToast();
  const winners = useEffectiveWinners();
  const g = usePlayGame();
  const draw = useCheckWinner({ game: g.game, heldGame: g.heldGame, reload: g.reload, onMoneyChanged });
  const { game, entries, play } = g;

  const [themeName, setThemeName] = useState<ThemeName>(loadTheme);
  const [reveal, setReveal] = useState(false);
  const names: NamesView = { reveal, setReveal };
  const [slideshow, setSlideshow] = useState<number[] | null>(null);
  const [printing, setPrinting] = useState<number | null>(null);

  const ended = game !== null && isEnded(game);
  const drawn = useMemo(() => game?.draws.map((d) => d.number) ?? [], [game]);
  const selected = useMemo(() => new Map(entries.map((p) => [p.number, p])), [entries]);

  const livePrizes: PrizeLine[] | null = useMemo(
    () =>
      winners.data?.winners
        .filter((w) => w.isActive)
        .sort((a, b) => a.position - b.position)
        .map((w) => ({ position: w.position, name: w.name, percentBps: parsePercentToBps(w.percent) ?? 0 })) ?? null,
    [winners.data],
  );
  // Once open, a game keeps the prizes the server fixed when it opened.
  const prizes: PrizeLine[] | null = game ? game.prizes : livePrizes;
  const total = prizes?.length ?? 0;
  const liveTotalBps = livePrizes ? totalPercentBps(livePrizes.map((p) => ({ ...p, isActive: true }))) : 0;
  const poolCents = game ? decimalToCents(game.pool) : 0;
  // From the freeze on (the first Check Winner), the entries and the setup are fixed.
  const started = game !== null && game.status !== 'open';
  const setupLocked = game !== null && (entries.length > 0 || started);
  const setupBusy = g.entriesBusy || draw.drawing;
  const busy = setupBusy || g.voidBusy;
  // The pool one more participant would make, said in their dialog before they pay.
  const nextPool = (entries.length + 1) * g.setup.betCents;
  const nothingToDraw =
    entries.length === 0 || total === 0 || (game !== null && game.draws.length >= total) || ended || draw.wait !== null;

  const state: GameState = play.isPending
    ? 'loading'
    : play.isError && !play.data
      ? 'failed'
      : game === null
        ? 'none'
        : game.status === 'settled'
          ? 'settled'
          : ended
            ? 'voided'
            : draw.wait !== null
              ? 'waiting'
              : started
                ? 'drawing'
                : entries.length > 0
                  ? 'entries'
                  : 'open';

  const changeTheme = (name: ThemeName) => {
    saveTheme(name);
    setThemeName(name);
  };
  const pick = (number: number) => {
    if (started || busy) return;
    g.setPicking(number);
  };
  const showNumbersLeft = () => {
    const left = numbersLeft(g.setup.startRange, g.setup.endRange, [...selected.keys()], drawn);
    if (left.length === 0) return toast.error(ALL_NUMBERS_SELECTED);
    setSlideshow(left);
  };
  const closeSlideshow = useCallback(() => setSlideshow(null), []);
  /** Prints the number's slip of the game as the server last answered it; a failure is said in a notice. */
  const print = async (number: number) => {
    const held = g.heldGame();
    if (!held) return;
    setPrinting(number);
    const failure = await printSlip(held, number);
    setPrinting(null);
    if (failure) toast.error(failure);
  };
  /** Saves the participant; with `andPrint`, once the server has them, prints their slip. */
  const saveParticipant = async (participant: Participant, andPrint = false) => {
    const failure = await g.saveParticipant(participant);
    if (failure === null && andPrint) void print(participant.number);
    return failure;
  };

  return {
    state,
    /** Frozen or ended: the entries and the board are fixed. */
    started,
    play,
    game,
    entries,
    winners,
    theme: GAME_THEMES[themeName],
    themeName,
    names,
    reveal,
    drawn,
    selected,
    prizes,
    total,
    poolCents,
    commissionCents: game?.commission ? decimalToCents(game.commission) : null,
    setup: g.setup,
    setupVersion: g.setupVersion,
    /** What the screen shows besides the board, by state. */
    shows: {
      setupLockedNote: setupLocked && !started,
      over100: !game && liveTotalBps > 10_000,
      liveTotalBps,
      winners: started && prizes !== null,
      outcome: ended,
      outcomeFixed: game?.status === 'drawing',
    },
    /** What the operator may do, by state. */
    allows: {
      editSetup: !(setupLocked || setupBusy),
      pick: !(started || busy),
      check: !(nothingToDraw || busy),
      reset: !busy,
    },
    checkLabel: `Check Winner (${game?.draws.length ?? 0}/${total})`,
    resetLabel: game?.status === 'drawing' ? null : ended ? 'New Game' : 'Reset Game',
    drawPending: draw.drawing,
    wait: draw.wait,
    winner: draw.winner,
    picking: g.picking,
    pickingParticipant: g.picking === null ? null : (selected.get(g.picking) ?? null),
    poolWarning: balanceCents !== null && nextPool > balanceCents ? entryOverBalance(nextPool, balanceCents) : null,
    resetMode: g.resetMode,
    slideshow,
    changeTheme,
    changeSetup: g.changeSetup,
    pick,
    closePicking: () => g.setPicking(null),
    saveParticipant,
    /** The number whose slip is being printed, or null. */
    printing,
    printSlip: (number: number) => void print(number),
    removeParticipant: g.removeParticipant,
    checkWinner: (event: MouseEvent) => void draw.checkWinner(event),
    closeWinner: draw.closeWinner,
    askReset: g.askReset,
    confirmReset: g.confirmReset,
    closeReset: g.closeReset,
    showNumbersLeft,
    closeSlideshow,
  };
}

export type GameController = ReturnType<typeof useGameController>;
