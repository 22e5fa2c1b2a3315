import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Globe, Loader2, Lock, Printer, RotateCcw, ShieldCheck, Volume2, X } from 'lucide-react';
import { commitmentFingerprint } from '@lot/domain/draw';
import {
  formatBps,
  gameTitle,
  GAME_RULES,
  numbersLeft,
  parsePercentToBps,
  totalPercentBps,
  type Participant,
} from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { normalizeRole, ROLE_LABELS } from '@lot/domain/roles';
import { decimalToCents, formatMoney, type Cents } from '@lot/domain/money';
import type { SessionUser } from '@lot/domain/schemas/auth';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useDraw } from '../api/draw.ts';
import { holdGame, isEnded, playGameQueryKey } from '../api/games-cache.ts';
import { usePlayGame } from '../api/get-current-game.ts';
import { useEffectiveWinners } from '../api/get-effective-winners.ts';
import { useOpenGame, type GameSetup } from '../api/open-game.ts';
import { usePutEntries } from '../api/put-entries.ts';
import { useVoidGame, VOID_REASONS } from '../api/void-game.ts';
import { useDrawFlow } from '../hooks/use-draw-flow.ts';
import { BeaconWaitView, waitTitle } from './beacon-wait-view.tsx';
import { CustomerDisplayOffer } from './customer-display-offer.tsx';
import { protocolText } from './draw-protocol.ts';
import { FullscreenToggle } from './fullscreen-toggle.tsx';
import { GameSetupFields } from './game-setup.tsx';
import { GAME_THEMES, loadTheme, saveTheme, THEMES, type GameTheme, type ThemeName } from './game-theme.ts';
import { PrizePanel, SelectedNumbersPanel, WinnersPanel, type PrizeLine } from './game-panels.tsx';
import { NumberGrid } from './number-grid.tsx';
import { NumbersLeftOverlay } from './numbers-left-overlay.tsx';
import { ParticipantModal } from './participant-modal.tsx';
import { ResetDialog, type ResetMode } from './reset-dialog.tsx';
import { WinnerModal, type DrawnWinner } from './winner-modal.tsx';

export const ALL_NUMBERS_SELECTED = 'All numbers in the range have been selected!';
export const GAME_SAVED = 'Game saved to Game History';
export const SETUP_LOCKED = 'Range and bet are fixed once the first participant is in. Reset Game to change them.';
const ANOTHER_SCREEN = 'This game was changed on another screen; it is shown as it is now.';
/**
 * Once the first draw froze the game (entries fixed, pool held, the beacon round named) its outcome
 * is fixed: the shop can only finish it; its upline or an admin may also void it (the server
 * refuses the shop's void with its own words, shown if it happens).
 */
export const OUTCOME_FIXED =
  'The draw has started, so the outcome is fixed: this game can no longer be voided here. Only your agent or an admin can finish or void it.';
const WAIT_NOTE =
  'The entries are fixed and the pool is held. The draw uses this public round, which nobody could know when the entries were fixed.';

const DEFAULT_SETUP: GameSetup = {
  startRange: GAME_RULES.defaultStart,
  endRange: GAME_RULES.defaultEnd,
  betCents: GAME_RULES.defaultBetCents,
};

/** Keys the play screen kept in this browser before the server ran the game; nothing reads them now. */
const LEFTOVER_KEYS = ['numberGame', 'selectedNumbers', 'betAmount'];

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

const setupOf = (game: Game): GameSetup => ({
  startRange: game.startRange,
  endRange: game.endRange,
  betCents: decimalToCents(game.betAmount),
});

/**
 * The BOCH BOCH play screen (docs/product/screens.md#game-play): what a shop shows its customers on a big display.
 * The server runs the game (docs/decisions/013): saving the first participant opens it, every
 * change of the list replaces it on the server, Check Winner asks the server for the next draw and
 * the last draw settles it. The browser keeps nothing of the game but the theme: a reload, another
 * browser or another device carries on with the same game. `onMoneyChanged` runs when a draw or a
 * void moved money (the pool held, the game recorded, the pool returned).
 */
export function PlayScreen({
  user,
  balanceCents,
  onMoneyChanged,
}: {
  user: SessionUser;
  balanceCents: Cents | null;
  onMoneyChanged: () => void;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const play = usePlayGame();
  const winners = useEffectiveWinners();
  const openCall = useOpenGame();
  const entriesCall = usePutEntries();
  const drawCall = useDraw();
  const voidCall = useVoidGame();

  const [themeName, setThemeName] = useState<ThemeName>(loadTheme);
  const theme = GAME_THEMES[themeName];
  const [setup, setSetup] = useState<GameSetup>(DEFAULT_SETUP);
  const [picking, setPicking] = useState<number | null>(null);
  const [winner, setWinner] = useState<DrawnWinner | null>(null);
  const [resetMode, setResetMode] = useState<ResetMode | null>(null);
  const [slideshow, setSlideshow] = useState<number[] | null>(null);

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
  const ended = game !== null && isEnded(game);
  const entries = useMemo(() => game?.entries ?? [], [game]);
  const drawn = useMemo(() => game?.draws.map((d) => d.number) ?? [], [game]);
  const selected = useMemo(() => new Map(entries.map((p) => [p.number, p])), [entries]);

  // The range and bet fields are drafts of their own: they start again from what is shown when a
  // different game comes on screen (or after a reset), never while the operator is typing.
  const gameId = game?.id ?? null;
  const [seenGameId, setSeenGameId] = useState(gameId);
  const [setupVersion, setSetupVersion] = useState(0);
  if (gameId !== seenGameId) {
    setSeenGameId(gameId);
    if (gameId !== null) setSetupVersion((v) => v + 1);
  }

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
  const shownSetup = game ? setupOf(game) : setup;
  const poolCents = game ? decimalToCents(game.pool) : 0;
  // From the freeze on (the first Check Winner), the entries and the setup are fixed.
  const started = game !== null && game.status !== 'open';
  const frozen = game?.status === 'drawing';
  const setupLocked = game !== null && (entries.length > 0 || started);
  // Calls that change the game: the buttons wait for them. Discarding an empty game after a change
  // of range or bet is left out, so the fields being typed in never switch off under the operator.
  const setupBusy = openCall.isPending || entriesCall.isPending || drawCall.isPending;
  const busy = setupBusy || voidCall.isPending;

  const changeTheme = (name: ThemeName) => {
    saveTheme(name);
    setThemeName(name);
  };

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

  const pick = (number: number) => {
    if (started || busy) return;
    setPicking(number);
  };

  /** A draw the server made: its winner's popup, and the game saved once the last one settled it. */
  const showDraw = (result: DrawResult) => {
    onMoneyChanged();
    const prize = result.game.prizes.find((p) => p.position === result.position);
    if (result.winner && prize) {
      setWinner({ ...result.winner, prizeName: prize.name, prizeAmount: decimalToCents(result.prizeAmount) });
    }
    if (result.game.status === 'settled') toast.success(GAME_SAVED);
  };

  // LOT-DRAW-2: after the freeze the draw waits for the beacon round, asked again by itself.
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

  const showNumbersLeft = () => {
    const left = numbersLeft(shownSetup.startRange, shownSetup.endRange, [...selected.keys()], drawn);
    if (left.length === 0) return toast.error(ALL_NUMBERS_SELECTED);
    setSlideshow(left);
  };
  const closeSlideshow = useCallback(() => setSlideshow(null), []);

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

  const name = user.shopName?.trim() || user.fullName;
  const nothingToDraw =
    entries.length === 0 || total === 0 || (game !== null && game.draws.length >= total) || ended || wait !== null;

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
          <FullscreenToggle theme={theme} />
          <Link to="/user/number-game" aria-label="Leave the game" className={`rounded-xl p-2.5 ${theme.secondary}`}>
            <X className="h-6 w-6" aria-hidden="true" />
          </Link>
        </div>
      </header>

      {play.isPending ? (
        <p role="status" className="flex flex-1 items-center justify-center gap-3 text-2xl font-semibold">
          <Loader2 className="h-8 w-8 animate-spin" aria-hidden="true" /> Loading the game...
        </p>
      ) : play.isError && !play.data ? (
        <div role="alert" className="mx-auto mt-10 max-w-lg space-y-4 rounded-2xl bg-rose-50 p-6 text-rose-900">
          <p className="text-xl font-bold">The game could not be loaded.</p>
          <p>{errorMessage(play.error, 'The server did not answer.')}</p>
          <button
            type="button"
            onClick={() => void play.refetch()}
            className="rounded-lg bg-rose-700 px-4 py-2 font-semibold text-white hover:bg-rose-800"
          >
            Try Again
          </button>
        </div>
      ) : (
        <main className="grid flex-1 gap-4 px-4 pb-6 sm:px-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-6 2xl:grid-cols-[minmax(0,1fr)_28rem]">
          <section aria-label="Game board" className="flex min-w-0 flex-col gap-4">
            <div className={`rounded-2xl p-4 ${theme.panel}`}>
              <GameSetupFields
                key={setupVersion}
                startRange={shownSetup.startRange}
                endRange={shownSetup.endRange}
                betCents={shownSetup.betCents}
                selectedNumbers={entries.map((p) => p.number)}
                locked={setupLocked || setupBusy}
                theme={theme}
                onChange={(next) =>
                  changeSetup({ startRange: next.startRange, endRange: next.endRange, betCents: next.betAmount })
                }
              />
              {setupLocked && !started && (
                <p data-testid="setup-locked" className={`mt-3 flex items-center gap-2 text-sm ${theme.muted}`}>
                  <Lock className="h-4 w-4 shrink-0" aria-hidden="true" />
                  {SETUP_LOCKED}
                </p>
              )}
            </div>
            <NumberGrid
              start={shownSetup.startRange}
              end={shownSetup.endRange}
              selected={selected}
              drawn={drawn}
              locked={started}
              theme={theme}
              onPick={pick}
            />
          </section>

          <aside aria-label="Game status" className="flex min-w-0 flex-col gap-4">
            {game && <GameIdentity game={game} theme={theme} />}
            {game && <CustomerDisplayOffer code={game.code} themeName={themeName} theme={theme} />}
            {!game && liveTotalBps > 10_000 && (
              <p
                role="alert"
                data-testid="over-100"
                className="flex items-start gap-2 rounded-2xl bg-rose-50 p-4 font-semibold text-rose-900 ring-2 ring-rose-300"
              >
                <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
                <span>
                  The active winner settings add up to more than 100% ({formatBps(liveTotalBps)}%). A game cannot start
                  until they are corrected in My Winner Settings.
                </span>
              </p>
            )}
            {started && prizes ? (
              <WinnersPanel prizes={prizes} draws={game?.draws ?? []} theme={theme} />
            ) : (
              <SelectedNumbersPanel selected={entries} theme={theme} />
            )}
            <PrizePanel
              prizes={prizes}
              poolCents={poolCents}
              commissionCents={game?.commission ? decimalToCents(game.commission) : null}
              theme={theme}
              status={
                game ? undefined : winners.isPending ? (
                  <p role="status" className={`flex items-center gap-2 ${theme.muted}`}>
                    <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> Loading prizes...
                  </p>
                ) : winners.isError ? (
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

            {game && ended && <GameOutcome game={game} theme={theme} />}

            <div className="flex flex-col gap-3">
              <button
                type="button"
                onClick={(event) => void checkWinner(event)}
                aria-disabled={nothingToDraw || busy}
                aria-busy={drawCall.isPending || wait !== null}
                className={`inline-flex items-center justify-center gap-3 rounded-2xl px-6 py-4 text-2xl font-black shadow-lg sm:text-3xl ${theme.primary} ${
                  nothingToDraw || busy ? 'cursor-not-allowed opacity-50' : ''
                }`}
              >
                {(drawCall.isPending || wait) && <Loader2 className="h-7 w-7 animate-spin" aria-hidden="true" />}
                Check Winner ({game?.draws.length ?? 0}/{total})
              </button>
              {/* Under the button just pressed, so the button itself stays where it was. */}
              {wait && <BeaconWaitView wait={wait} theme={theme} size="play" note={WAIT_NOTE} />}
              {frozen ? (
                <p
                  data-testid="outcome-fixed"
                  className={`flex items-start gap-2 rounded-2xl px-4 py-3 text-base ${theme.panel}`}
                >
                  <Lock className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
                  <span>{OUTCOME_FIXED}</span>
                </p>
              ) : (
                <button
                  type="button"
                  onClick={askReset}
                  disabled={busy}
                  className={`inline-flex items-center justify-center gap-2 rounded-2xl px-6 py-3 text-lg font-bold disabled:opacity-50 ${theme.secondary}`}
                >
                  <RotateCcw className="h-5 w-5" aria-hidden="true" />
                  {ended ? 'New Game' : 'Reset Game'}
                </button>
              )}
            </div>
          </aside>
        </main>
      )}

      <ParticipantModal
        number={picking}
        participant={picking === null ? null : (selected.get(picking) ?? null)}
        onSave={saveParticipant}
        onRemove={removeParticipant}
        onClose={() => setPicking(null)}
      />
      <WinnerModal winner={winner} onContinue={() => setWinner(null)} />
      <ResetDialog mode={resetMode} onConfirm={confirmReset} onClose={() => setResetMode(null)} />
      {slideshow && <NumbersLeftOverlay numbers={slideshow} theme={theme} onClose={closeSlideshow} />}
    </div>
  );
}

/**
 * The game's name ("Game #N", its shop's game number), its public code and the fingerprint of the
 * server's commitment to its seed, shown from the moment it opens: a participant can note them and later check the game at /verify/{code}.
 */
function GameIdentity({ game, theme }: { game: Game; theme: GameTheme }) {
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

/** How the game on screen ended: saved (with the way to verify it), or voided / discarded elsewhere. */
function GameOutcome({ game, theme }: { game: Game; theme: GameTheme }) {
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
