import { useCallback, useMemo, useState } from 'react';
import { AlertTriangle, Loader2, Lock } from 'lucide-react';
import { formatBps, numbersLeft, parsePercentToBps, totalPercentBps } from '@lot/domain/game';
import { decimalToCents, type Cents } from '@lot/domain/money';
import type { SessionUser } from '@lot/domain/schemas/auth';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { isEnded } from '../api/games-cache.ts';
import { useEffectiveWinners } from '../api/get-effective-winners.ts';
import { useCheckWinner } from '../hooks/use-check-winner.ts';
import { usePlayGame } from '../hooks/use-play-game.ts';
import { CustomerDisplayOffer } from './customer-display-offer.tsx';
import { GameIdentity } from './game-identity.tsx';
import { GameOutcome } from './game-outcome.tsx';
import { GameSetupFields } from './game-setup.tsx';
import { GAME_THEMES, loadTheme, saveTheme, type ThemeName } from '../../../lib/game/game-theme.ts';
import { LivePrizesStatus } from './live-prizes-status.tsx';
import { PrizePanel, SelectedNumbersPanel, WinnersPanel, type PrizeLine } from './game-panels.tsx';
import type { NamesView } from '../../../components/game/names-privacy.tsx';
import { NumberGrid } from '../../../components/game/number-grid.tsx';
import { NumbersLeftOverlay } from './numbers-left-overlay.tsx';
import { ParticipantModal } from './participant-modal.tsx';
import { PlayActions } from './play-actions.tsx';
import { PlayHeader } from './play-header.tsx';
import { ALL_NUMBERS_SELECTED, entryOverBalance, OUTCOME_FIXED, SETUP_LOCKED } from './play-texts.ts';
import { PoolWarning } from './pool-warning.tsx';
import { ResetDialog } from './reset-dialog.tsx';
import { WinnerModal } from './winner-modal.tsx';

/**
 * The BOCH BOCH play screen (docs/product/screens.md#game-play): what a shop shows its customers on a big display.
 * The server runs the game (docs/decisions/013): `usePlayGame` holds it and takes the entries,
 * `useCheckWinner` draws. The browser keeps nothing of the game but the theme: a reload, another
 * browser or another device carries on with the same game. Names and phones show masked until the
 * operator presses Show names (for this visit only). `onMoneyChanged` runs when a draw or a void
 * moved money (the pool held, the game recorded, the pool returned).
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
  const winners = useEffectiveWinners();
  const g = usePlayGame();
  const draw = useCheckWinner({ game: g.game, heldGame: g.heldGame, reload: g.reload, onMoneyChanged });
  const { game, entries, play } = g;

  const [themeName, setThemeName] = useState<ThemeName>(loadTheme);
  const theme = GAME_THEMES[themeName];
  const [reveal, setReveal] = useState(false);
  const names: NamesView = { reveal, setReveal };
  const [slideshow, setSlideshow] = useState<number[] | null>(null);

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

  return (
    // On a phone the action bar is fixed at the foot: the page leaves room for it.
    <div className={`flex min-h-screen flex-col pb-28 lg:pb-0 ${theme.page}`} data-theme={themeName}>
      <PlayHeader
        user={user}
        balanceCents={balanceCents}
        themeName={themeName}
        theme={theme}
        onTheme={changeTheme}
        onNumbersLeft={showNumbersLeft}
      />

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
                key={g.setupVersion}
                startRange={g.setup.startRange}
                endRange={g.setup.endRange}
                betCents={g.setup.betCents}
                selectedNumbers={entries.map((p) => p.number)}
                locked={setupLocked || setupBusy}
                theme={theme}
                onChange={(next) =>
                  g.changeSetup({ startRange: next.startRange, endRange: next.endRange, betCents: next.betAmount })
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
              start={g.setup.startRange}
              end={g.setup.endRange}
              selected={selected}
              drawn={drawn}
              locked={started}
              reveal={reveal}
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
              <WinnersPanel prizes={prizes} draws={game.draws} theme={theme} names={names} />
            ) : (
              <SelectedNumbersPanel selected={entries} theme={theme} names={names}>
                <PoolWarning poolCents={poolCents} balanceCents={balanceCents} />
              </SelectedNumbersPanel>
            )}
            <PrizePanel
              prizes={prizes}
              poolCents={poolCents}
              commissionCents={game?.commission ? decimalToCents(game.commission) : null}
              theme={theme}
              status={game ? undefined : <LivePrizesStatus winners={winners} theme={theme} />}
            />
            {game && ended && <GameOutcome game={game} theme={theme} />}
            <PlayActions
              label={`Check Winner (${game?.draws.length ?? 0}/${total})`}
              disabled={nothingToDraw || busy}
              pending={draw.drawing}
              wait={draw.wait}
              reset={game?.status === 'drawing' ? null : ended ? 'New Game' : 'Reset Game'}
              resetDisabled={busy}
              theme={theme}
              onCheck={(event) => void draw.checkWinner(event)}
              onReset={g.askReset}
            />
            {game?.status === 'drawing' && (
              <p
                data-testid="outcome-fixed"
                className={`flex items-start gap-2 rounded-2xl px-4 py-3 text-base ${theme.panel}`}
              >
                <Lock className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
                <span>{OUTCOME_FIXED}</span>
              </p>
            )}
          </aside>
        </main>
      )}

      <ParticipantModal
        number={g.picking}
        participant={g.picking === null ? null : (selected.get(g.picking) ?? null)}
        poolWarning={balanceCents !== null && nextPool > balanceCents ? entryOverBalance(nextPool, balanceCents) : null}
        onSave={g.saveParticipant}
        onRemove={g.removeParticipant}
        onClose={() => g.setPicking(null)}
      />
      <WinnerModal winner={draw.winner} names={names} onContinue={draw.closeWinner} />
      <ResetDialog mode={g.resetMode} onConfirm={g.confirmReset} onClose={g.closeReset} />
      {slideshow && <NumbersLeftOverlay numbers={slideshow} theme={theme} onClose={closeSlideshow} />}
    </div>
  );
}
