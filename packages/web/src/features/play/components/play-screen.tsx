import type { ReactNode } from 'react';
import { AlertTriangle, Loader2, Lock } from 'lucide-react';
import { formatBps } from '@lot/domain/game';
import type { Cents } from '@lot/domain/money';
import type { SessionUser } from '@lot/domain/schemas/auth';
import { errorMessage } from '../../../lib/api-client.ts';
import { CustomerDisplayOffer } from './customer-display-offer.tsx';
import { GameIdentity } from './game-identity.tsx';
import { GameOutcome } from './game-outcome.tsx';
import { GameSetupFields } from './game-setup.tsx';
import { LivePrizesStatus } from './live-prizes-status.tsx';
import { PrizePanel, SelectedNumbersPanel, WinnersPanel } from './game-panels.tsx';
import { NumberGrid } from '../../../components/game/number-grid.tsx';
import { NumbersLeftOverlay } from './numbers-left-overlay.tsx';
import { ParticipantModal } from './participant-modal.tsx';
import { PlayActions } from './play-actions.tsx';
import { PlayHeader } from './play-header.tsx';
import { OUTCOME_FIXED, SETUP_LOCKED } from './play-texts.ts';
import { PoolWarning } from './pool-warning.tsx';
import { ResetDialog } from './reset-dialog.tsx';
import { WinnerModal } from './winner-modal.tsx';
import { useGameController, type PrintEntrySlip } from '../hooks/use-game-controller.ts';

/**
 * The BOCH BOCH play screen (docs/product/screens.md#game-play): what a shop shows its customers on a big display.
 * A layout over `useGameController`, which holds the game's state (docs/decisions/013) and says
 * what each state shows and allows. The browser keeps nothing of the game but the theme: a reload, another
 * browser or another device carries on with the same game. Names and phones show masked until the
 * operator presses Show names (for this visit only). `onMoneyChanged` runs when a draw or a void
 * moved money (the pool held, the game recorded, the pool returned); `printSlip` prints a
 * customer's slip here (Save and print slip, and each entry's print button).
 *
 * On a wide screen the screen is the window's height: the board keeps every number in view however
 * many entries the side column lists, and the column scrolls on its own, Check Winner at its foot.
 */
export function PlayScreen({
  user,
  balanceCents,
  onMoneyChanged,
  printSlip,
  notice,
}: {
  user: SessionUser;
  balanceCents: Cents | null;
  onMoneyChanged: () => void;
  printSlip: PrintEntrySlip;
  /** A strip under the header (the route's: "No shift open"). */
  notice?: ReactNode;
}) {
  const c = useGameController({ balanceCents, onMoneyChanged, printSlip });
  const { game, entries, play, theme, names, prizes } = c;

  return (
    // On a phone the action bar is fixed at the foot: the page leaves room for it.
    <div
      className={`flex min-h-screen flex-col pb-28 lg:h-dvh lg:min-h-0 lg:pb-0 ${theme.page}`}
      data-theme={c.themeName}
    >
      <PlayHeader
        user={user}
        balanceCents={balanceCents}
        themeName={c.themeName}
        theme={theme}
        onTheme={c.changeTheme}
        onNumbersLeft={c.showNumbersLeft}
      />
      {notice}

      {c.state === 'loading' ? (
        <p role="status" className="flex flex-1 items-center justify-center gap-3 text-2xl font-semibold">
          <Loader2 className="h-8 w-8 animate-spin" aria-hidden="true" /> Loading the game...
        </p>
      ) : c.state === 'failed' ? (
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
        <main className="grid flex-1 gap-4 px-4 pb-6 sm:px-6 lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_24rem] lg:grid-rows-[minmax(0,1fr)] lg:gap-6 2xl:grid-cols-[minmax(0,1fr)_28rem]">
          <section aria-label="Game board" className="flex min-w-0 flex-col gap-4">
            <div className={`rounded-2xl p-4 ${theme.panel}`}>
              <GameSetupFields
                key={c.setupVersion}
                startRange={c.setup.startRange}
                endRange={c.setup.endRange}
                betCents={c.setup.betCents}
                selectedNumbers={entries.map((p) => p.number)}
                locked={!c.allows.editSetup}
                theme={theme}
                onChange={(next) =>
                  c.changeSetup({ startRange: next.startRange, endRange: next.endRange, betCents: next.betAmount })
                }
              />
              {c.shows.setupLockedNote && (
                <p data-testid="setup-locked" className={`mt-3 flex items-center gap-2 text-sm ${theme.muted}`}>
                  <Lock className="h-4 w-4 shrink-0" aria-hidden="true" />
                  {SETUP_LOCKED}
                </p>
              )}
            </div>
            {/* Where the bets are taken, on a phone too: in view above the numbers. */}
            {!c.started && <PoolWarning poolCents={c.poolCents} balanceCents={balanceCents} />}
            <NumberGrid
              start={c.setup.startRange}
              end={c.setup.endRange}
              selected={c.selected}
              drawn={c.drawn}
              locked={c.started}
              reveal={c.reveal}
              theme={theme}
              onPick={c.pick}
            />
          </section>

          <aside
            aria-label="Game status"
            className="flex min-w-0 flex-col gap-4 lg:-mx-2 lg:overflow-y-auto lg:px-2 lg:pt-1"
          >
            {game && <GameIdentity game={game} theme={theme} />}
            {game && <CustomerDisplayOffer code={game.code} themeName={c.themeName} theme={theme} />}
            {c.shows.over100 && (
              <p
                role="alert"
                data-testid="over-100"
                className="flex items-start gap-2 rounded-2xl bg-rose-50 p-4 font-semibold text-rose-900 ring-2 ring-rose-300"
              >
                <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
                <span>
                  The active winner settings add up to more than 100% ({formatBps(c.shows.liveTotalBps)}%). A game
                  cannot start until they are corrected in My Winner Settings.
                </span>
              </p>
            )}
            {c.shows.winners && game && prizes ? (
              <WinnersPanel prizes={prizes} draws={game.draws} theme={theme} names={names} />
            ) : (
              <SelectedNumbersPanel
                selected={entries}
                theme={theme}
                names={names}
                onPrint={c.printSlip}
                printing={c.printing}
              />
            )}
            <PrizePanel
              prizes={prizes}
              poolCents={c.poolCents}
              commissionCents={c.commissionCents}
              theme={theme}
              status={game ? undefined : <LivePrizesStatus winners={c.winners} theme={theme} />}
            />
            {game && c.shows.outcome && <GameOutcome game={game} theme={theme} />}
            <PlayActions
              label={c.checkLabel}
              disabled={!c.allows.check}
              pending={c.drawPending}
              wait={c.wait}
              reset={c.resetLabel}
              resetDisabled={!c.allows.reset}
              theme={theme}
              onCheck={c.checkWinner}
              onReset={c.askReset}
            />
            {c.shows.outcomeFixed && (
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
        number={c.picking}
        participant={c.pickingParticipant}
        poolWarning={c.poolWarning}
        onSave={c.saveParticipant}
        onRemove={c.removeParticipant}
        onClose={c.closePicking}
      />
      <WinnerModal winner={c.winner} names={names} onContinue={c.closeWinner} />
      <ResetDialog mode={c.resetMode} onConfirm={c.confirmReset} onClose={c.closeReset} />
      {c.slideshow && <NumbersLeftOverlay numbers={c.slideshow} theme={theme} onClose={c.closeSlideshow} />}
    </div>
  );
}
