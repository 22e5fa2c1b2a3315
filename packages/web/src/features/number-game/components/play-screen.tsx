import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Loader2, Maximize, Minimize, RotateCcw, Volume2, X } from 'lucide-react';
import {
  drawNumber,
  numbersLeft,
  parsePercentToBps,
  prizeFor,
  randomBelowFrom,
  settleGame,
  type Participant,
} from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { formatMoney, type Cents } from '@lot/domain/money';
import type { SessionUser } from '@lot/domain/schemas/auth';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage, newIdempotencyKey } from '../../../lib/api-client.ts';
import { useEffectiveWinners } from '../api/get-effective-winners.ts';
import { useRecordGame, type FinishedGame } from '../api/record-game.ts';
import { useFullscreen } from '../hooks/use-fullscreen.ts';
import { useGameState, type GamePrize, type GameState } from '../hooks/use-game-state.ts';
import { GameSetupFields } from './game-setup.tsx';
import { GAME_THEMES, loadTheme, saveTheme, THEMES, type GameTheme, type ThemeName } from './game-theme.ts';
import { PrizePanel, SelectedNumbersPanel, WinnersPanel } from './game-panels.tsx';
import { NumberGrid } from './number-grid.tsx';
import { NumbersLeftOverlay } from './numbers-left-overlay.tsx';
import { ParticipantModal } from './participant-modal.tsx';
import { ResetDialog } from './reset-dialog.tsx';
import { WinnerModal, type DrawnWinner } from './winner-modal.tsx';

/** Check Winner's randomness: Web Crypto, unbiased (spec: crypto.getRandomValues). */
const randomBelow = randomBelowFrom((values) => crypto.getRandomValues(values));

export const ALL_NUMBERS_SELECTED = 'All numbers in the range have been selected!';
export const GAME_SAVED = 'Game saved to Game History';

/** A game whose every position is drawn and which the server has not recorded yet. */
function finishedGame(game: GameState): FinishedGame | null {
  if (!game.gameKey || !game.prizes || game.saleId !== null || game.drawn.length < game.prizes.length) return null;
  return {
    userId: game.userId,
    startRange: game.startRange,
    endRange: game.endRange,
    betCents: game.betCents,
    selected: game.selected,
    drawn: game.drawn,
    settings: game.prizes,
    gameKey: game.gameKey,
  };
}

function ThemePicker({
  value,
  onChange,
  theme,
}: {
  value: ThemeName;
  onChange: (t: ThemeName) => void;
  theme: GameTheme;
}) {
  return (
    <div role="radiogroup" aria-label="Theme" className={`flex items-center gap-1.5 rounded-full p-1.5 ${theme.panel}`}>
      {THEMES.map((name) => (
        <button
          key={name}
          type="button"
          role="radio"
          aria-checked={value === name}
          aria-label={GAME_THEMES[name].label}
          title={GAME_THEMES[name].label}
          onClick={() => onChange(name)}
          className={`h-7 w-7 rounded-full ring-2 ring-offset-2 ring-offset-transparent ${GAME_THEMES[name].swatch} ${
            value === name ? 'ring-yellow-300' : 'ring-white/50'
          }`}
        />
      ))}
    </div>
  );
}

/**
 * The BOCH BOCH play screen (spec screen 18): what a shop shows its customers on a big display.
 * Balance comes from the screen that composes it; `onSettled` runs when a game is recorded.
 */
export function PlayScreen({
  user,
  balanceCents,
  refreshBalance,
  onSettled,
}: {
  user: SessionUser;
  balanceCents: Cents | null;
  refreshBalance: () => Promise<Cents | null>;
  onSettled: () => void;
}) {
  const toast = useToast();
  const { game, update, reset } = useGameState(user.id);
  const [themeName, setThemeName] = useState<ThemeName>(loadTheme);
  const theme = GAME_THEMES[themeName];
  const fullscreen = useFullscreen();
  const winners = useEffectiveWinners();
  const record = useRecordGame();

  const [picking, setPicking] = useState<number | null>(null);
  const [winner, setWinner] = useState<DrawnWinner | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const [slideshow, setSlideshow] = useState<number[] | null>(null);
  const [checkingBalance, setCheckingBalance] = useState(false);
  const [setupVersion, setSetupVersion] = useState(0);

  const selected = useMemo(() => new Map(game.selected.map((p) => [p.number, p])), [game.selected]);
  const livePrizes: GamePrize[] | null = useMemo(
    () =>
      winners.data?.winners.map((w) => ({
        position: w.position,
        percentBps: parsePercentToBps(w.percent) ?? 0,
        name: w.name,
      })) ?? null,
    [winners.data],
  );
  // Once started, a game keeps the prizes it started with.
  const prizes = game.prizes ?? livePrizes;
  const started = game.gameKey !== null;
  const poolCents = game.selected.length * game.betCents;
  const total = prizes?.length ?? 0;
  const finished = useMemo(() => finishedGame(game), [game]);
  const complete = prizes !== null && started && game.drawn.length >= total;
  const commission = complete
    ? settleGame({ selected: game.selected, drawn: game.drawn, settings: prizes, betCents: game.betCents }).commission
    : null;

  const changeTheme = (name: ThemeName) => {
    saveTheme(name);
    setThemeName(name);
  };

  // Settlement: once per game key in this page's life; a reload re-sends the same key, which the
  // server answers with the first record instead of charging twice.
  const { mutate } = record;
  const settle = useCallback(
    (finishedGameToSave: FinishedGame) =>
      mutate(finishedGameToSave, {
        onSuccess: (sale) => {
          update((current) =>
            current.gameKey === finishedGameToSave.gameKey ? { ...current, saleId: sale.id } : current,
          );
          toast.success(GAME_SAVED);
          onSettled();
        },
      }),
    [mutate, update, toast, onSettled],
  );
  const sentKey = useRef<string | null>(null);
  useEffect(() => {
    if (!finished || sentKey.current === finished.gameKey) return;
    sentKey.current = finished.gameKey;
    settle(finished);
  }, [finished, settle]);

  const pick = (number: number) => {
    if (started) return;
    setPicking(number);
  };

  const saveParticipant = (participant: Participant) => {
    // A corrected participant keeps their place in the list; a new one joins at the end.
    update((current) => ({
      ...current,
      selected: current.selected.some((p) => p.number === participant.number)
        ? current.selected.map((p) => (p.number === participant.number ? participant : p))
        : [...current.selected, participant],
    }));
    setPicking(null);
  };

  const removeParticipant = (number: number) => {
    update((current) => ({ ...current, selected: current.selected.filter((p) => p.number !== number) }));
    setPicking(null);
  };

  const nothingToDraw = game.selected.length === 0 || total === 0 || game.drawn.length >= total;

  // Check Winner reads the game as it is now, not as the last render saw it, and one draw runs at
  // a time (the balance check waits for the server): a fast double click never draws twice.
  const latest = useRef(game);
  useEffect(() => {
    latest.current = game;
  }, [game]);
  const drawing = useRef(false);

  const drawNext = async () => {
    const current = latest.current;
    if (current.selected.length === 0) return toast.error(MESSAGES.noNumbersSelected);
    const prizesNow = current.prizes ?? livePrizes;
    if (!prizesNow) return;
    if (prizesNow.length === 0) return toast.error(MESSAGES.noWinnerSettings);
    if (current.drawn.length >= prizesNow.length) return toast.error(MESSAGES.allWinnersDrawn);
    const pool = current.selected.length * current.betCents;

    let gameKey = current.gameKey;
    if (gameKey === null) {
      const size = current.endRange - current.startRange + 1;
      if (size < prizesNow.length) {
        return toast.error(`The range needs at least ${prizesNow.length} numbers to draw ${prizesNow.length} prizes`);
      }
      // A game whose pool exceeds the balance cannot start (the balance as the server has it now).
      setCheckingBalance(true);
      const balance = await refreshBalance();
      setCheckingBalance(false);
      if (balance === null) return toast.error('Could not check your balance. Please try again.');
      if (balance < pool) return toast.error(MESSAGES.insufficientBalance);
      gameKey = newIdempotencyKey();
    }

    const number = drawNumber(current.startRange, current.endRange, current.drawn, randomBelow);
    if (number === null) return toast.error(MESSAGES.allWinnersDrawn);
    const prize = prizesNow[current.drawn.length];
    const next: GameState = {
      ...current,
      gameKey,
      prizes: current.prizes ?? prizesNow,
      drawn: [...current.drawn, number],
    };
    latest.current = next;
    update(() => next);
    const participant = current.selected.find((p) => p.number === number);
    if (participant && prize) {
      setWinner({ ...participant, prizeName: prize.name, prizeAmount: prizeFor(pool, prize.percentBps) });
    }
  };

  const checkWinner = async () => {
    if (drawing.current || record.isPending) return;
    drawing.current = true;
    try {
      await drawNext();
    } finally {
      drawing.current = false;
    }
  };

  const showNumbersLeft = () => {
    const left = numbersLeft(game.startRange, game.endRange, [...selected.keys()], game.drawn);
    if (left.length === 0) return toast.error(ALL_NUMBERS_SELECTED);
    setSlideshow(left);
  };
  const closeSlideshow = useCallback(() => setSlideshow(null), []);

  const doReset = () => {
    reset();
    record.reset();
    sentKey.current = null;
    setConfirmReset(false);
    setSetupVersion((v) => v + 1);
  };

  const name = user.shopName?.trim() || user.fullName;
  const unsaved = finished !== null;

  return (
    <div className={`flex min-h-screen flex-col ${theme.page}`} data-theme={themeName}>
      <header className="flex flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6 sm:py-4">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar userId={user.id} fullName={user.fullName} hasLogo={user.hasLogo} size="lg" />
          <div className="min-w-0">
            <p data-testid="game-shop-name" className="truncate text-xl font-bold sm:text-3xl">
              {name}
            </p>
            {name !== user.fullName && (
              <p className={`truncate text-sm sm:text-base ${theme.muted}`}>{user.fullName}</p>
            )}
          </div>
        </div>
        <h1 className="order-first w-full text-center text-2xl font-black tracking-[0.3em] sm:order-none sm:mx-auto sm:w-auto sm:text-4xl xl:text-5xl">
          BOCH BOCH
        </h1>
        <div className="flex flex-wrap items-center gap-2 sm:gap-3">
          <p className={`rounded-xl px-3 py-1.5 ${theme.panel}`}>
            <span className={`block text-xs font-semibold uppercase ${theme.muted}`}>Balance</span>
            <span data-testid="game-balance" className="text-lg font-bold tabular-nums sm:text-xl">
              {balanceCents === null ? '…' : formatMoney(balanceCents)}
            </span>
          </p>
          <button
            type="button"
            onClick={showNumbersLeft}
            className={`inline-flex items-center gap-2 rounded-xl px-4 py-2.5 font-semibold ${theme.secondary}`}
          >
            <Volume2 className="h-5 w-5" aria-hidden="true" />
            Numbers Left
          </button>
          <ThemePicker value={themeName} onChange={changeTheme} theme={theme} />
          <button
            type="button"
            onClick={fullscreen.toggle}
            aria-label={fullscreen.isFullscreen ? 'Exit fullscreen' : 'Enter fullscreen'}
            title="Fullscreen (F or F11)"
            className={`rounded-xl p-2.5 ${theme.secondary}`}
          >
            {fullscreen.isFullscreen ? <Minimize className="h-6 w-6" /> : <Maximize className="h-6 w-6" />}
          </button>
          <Link to="/user/number-game" aria-label="Leave the game" className={`rounded-xl p-2.5 ${theme.secondary}`}>
            <X className="h-6 w-6" aria-hidden="true" />
          </Link>
        </div>
      </header>

      {fullscreen.hint && (
        <p
          role="status"
          className="fixed top-4 left-1/2 z-40 -translate-x-1/2 rounded-full bg-black/80 px-5 py-2 text-lg font-semibold text-white shadow-lg"
        >
          Press F or Esc to exit fullscreen
        </p>
      )}

      <main className="grid flex-1 gap-4 px-4 pb-6 sm:px-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-6 2xl:grid-cols-[minmax(0,1fr)_28rem]">
        <section aria-label="Game board" className="flex min-w-0 flex-col gap-4">
          <div className={`rounded-2xl p-4 ${theme.panel}`}>
            <GameSetupFields
              key={setupVersion}
              startRange={game.startRange}
              endRange={game.endRange}
              betCents={game.betCents}
              selectedNumbers={game.selected.map((p) => p.number)}
              locked={started}
              theme={theme}
              onChange={(setup) =>
                update((current) => ({
                  ...current,
                  startRange: setup.startRange,
                  endRange: setup.endRange,
                  betCents: setup.betAmount,
                }))
              }
            />
          </div>
          <NumberGrid
            start={game.startRange}
            end={game.endRange}
            selected={selected}
            drawn={game.drawn}
            locked={started}
            theme={theme}
            onPick={pick}
          />
        </section>

        <aside aria-label="Game status" className="flex min-w-0 flex-col gap-4">
          {started && prizes ? (
            <WinnersPanel prizes={prizes} drawn={game.drawn} selected={selected} poolCents={poolCents} theme={theme} />
          ) : (
            <SelectedNumbersPanel selected={game.selected} theme={theme} />
          )}
          <PrizePanel
            prizes={prizes}
            poolCents={poolCents}
            commissionCents={commission}
            theme={theme}
            status={
              winners.isPending ? (
                <p role="status" className={`flex items-center gap-2 ${theme.muted}`}>
                  <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> Loading prizes...
                </p>
              ) : winners.isError && !game.prizes ? (
                <div role="alert" className="space-y-2">
                  <p>{errorMessage(winners.error, 'Failed to fetch winner settings')}</p>
                  <button
                    type="button"
                    onClick={() => void winners.refetch()}
                    className={`rounded-lg px-3 py-1.5 font-semibold ${theme.secondary}`}
                  >
                    Try Again
                  </button>
                </div>
              ) : prizes && prizes.length === 0 ? (
                <p className={theme.muted}>{MESSAGES.noWinnerSettings}</p>
              ) : undefined
            }
          />

          <SettlementStatus
            isPending={record.isPending}
            error={record.isError ? errorMessage(record.error, 'The server did not answer.') : null}
            saved={game.saleId !== null}
            theme={theme}
            onRetry={() => finished && settle(finished)}
          />

          <div className="flex flex-col gap-3">
            <button
              type="button"
              onClick={() => void checkWinner()}
              aria-disabled={nothingToDraw || checkingBalance}
              className={`inline-flex items-center justify-center gap-3 rounded-2xl px-6 py-4 text-2xl font-black shadow-lg sm:text-3xl ${theme.primary} ${
                nothingToDraw ? 'cursor-not-allowed opacity-50' : ''
              }`}
            >
              {checkingBalance && <Loader2 className="h-7 w-7 animate-spin" aria-hidden="true" />}
              Check Winner ({game.drawn.length}/{total})
            </button>
            <button
              type="button"
              onClick={() => (game.saleId !== null ? doReset() : setConfirmReset(true))}
              disabled={record.isPending}
              className={`inline-flex items-center justify-center gap-2 rounded-2xl px-6 py-3 text-lg font-bold disabled:opacity-50 ${theme.secondary}`}
            >
              <RotateCcw className="h-5 w-5" aria-hidden="true" />
              {game.saleId !== null ? 'New Game' : 'Reset Game'}
            </button>
          </div>
        </aside>
      </main>

      <ParticipantModal
        number={picking}
        participant={picking === null ? null : (selected.get(picking) ?? null)}
        onSave={saveParticipant}
        onRemove={removeParticipant}
        onClose={() => setPicking(null)}
      />
      <WinnerModal winner={winner} onContinue={() => setWinner(null)} />
      <ResetDialog open={confirmReset} unsaved={unsaved} onConfirm={doReset} onClose={() => setConfirmReset(false)} />
      {slideshow && <NumbersLeftOverlay numbers={slideshow} theme={theme} onClose={closeSlideshow} />}
    </div>
  );
}

/** Where the save of a finished game stands: saving, saved, or failed with a way to try again. */
function SettlementStatus({
  isPending,
  error,
  saved,
  theme,
  onRetry,
}: {
  isPending: boolean;
  error: string | null;
  saved: boolean;
  theme: GameTheme;
  onRetry: () => void;
}) {
  if (isPending) {
    return (
      <p role="status" className={`flex items-center gap-2 rounded-2xl px-4 py-3 text-lg font-semibold ${theme.panel}`}>
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> Saving the game...
      </p>
    );
  }
  if (error) {
    return (
      <div role="alert" className="space-y-3 rounded-2xl bg-rose-50 p-4 text-rose-900 ring-2 ring-rose-300">
        <p className="text-lg font-bold">This game could not be saved yet.</p>
        <p>
          {error} Nothing is lost: the game stays on this screen (and in this browser) until it is saved, and trying
          again never records it twice.
        </p>
        <button
          type="button"
          onClick={onRetry}
          className="rounded-lg bg-rose-700 px-4 py-2 font-semibold text-white hover:bg-rose-800"
        >
          Try Again
        </button>
      </div>
    );
  }
  if (saved) {
    return (
      <p
        role="status"
        data-testid="game-saved"
        className={`rounded-2xl px-4 py-3 text-lg font-semibold ${theme.panel}`}
      >
        {GAME_SAVED}.
      </p>
    );
  }
  return null;
}
