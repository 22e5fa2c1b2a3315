import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Globe, Loader2, SearchX, ShieldAlert, XCircle } from 'lucide-react';
import { commitmentFingerprint } from '@lot/domain/draw';
import { formatBps, gameTitle, numbersInRange, prizeFor } from '@lot/domain/game';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import type { GameDraw, GameProof } from '@lot/domain/schemas/games';
import type { PinnedChain, ProofReport } from '@lot/domain/verify';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { claimStatusText } from '../../../lib/claim-status.ts';
import { money } from '../../../lib/format.ts';
import { publicHref, usePublicBase } from '../../../lib/public-url.ts';
import { awaitedRound } from '../hooks/beacon-wait.ts';
import { BeaconWaitView } from './beacon-wait-view.tsx';
import { protocolOf, protocolText, voidedNotPaidText, winnerText } from './draw-protocol.ts';
import { FullscreenToggle } from './fullscreen-toggle.tsx';
import { useGameStream, type StreamConnection } from '../hooks/use-game-stream.ts';
import { usePins } from '../hooks/use-pins.ts';
import { useProofCheck } from '../hooks/use-proof-check.ts';
import { GAME_THEMES, type GameTheme, type ThemeName } from './game-theme.ts';
import { largeColumns } from './number-grid.tsx';
import './display-page.css';

/** How long a new draw stays large before it settles into the list. */
export const SPOTLIGHT_MS = 3_500;

/** 50.00 → 50, 12.50 → 12.5: a share as a room reads it. */
const percent = (bps: number) => formatBps(bps).replace(/\.?0+$/, '');
const WAIT_NOTE = 'The numbers are fixed. The draw uses this public random number, which nobody can know in advance.';

/**
 * The customer display (/display/{code}, no sign-in; docs/product/game.md#customer-display): a
 * second screen facing the customers that follows one game live. It only shows what the server
 * publishes for anyone (names and phones masked) and, once the game is settled, re-checks the
 * proof in this browser before it says Verified.
 */
export function DisplayPage({ code, themeName }: { code: string; themeName: ThemeName }) {
  const theme = GAME_THEMES[themeName];
  const { proof, connection } = useGameStream(code);
  const { pins } = usePins();

  return (
    <div className={`flex min-h-screen flex-col ${theme.page}`} data-theme={themeName} data-testid="display">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-8 sm:py-5">
        <div className="min-w-0 flex-1">
          <p
            data-testid="display-shop"
            className="truncate text-2xl font-bold sm:text-4xl 2xl:text-5xl"
            title={proof?.shopName}
          >
            {proof?.shopName ?? ''}
          </p>
          {proof && (
            <p data-testid="display-game-number" className="text-lg font-bold sm:text-2xl 2xl:text-3xl">
              {gameTitle(proof.number)}
            </p>
          )}
        </div>
        <h1 className="order-first w-full text-center text-2xl font-black tracking-[0.3em] sm:order-none sm:w-auto sm:text-5xl 2xl:text-6xl">
          BOCH BOCH
        </h1>
        <div className="flex items-center justify-end gap-3 sm:flex-1">
          <ConnectionStatus connection={connection} theme={theme} />
          <FullscreenToggle theme={theme} />
        </div>
      </header>

      {connection === 'missing' ? (
        <NoSuchGame code={code} theme={theme} />
      ) : proof === null ? (
        <p role="status" className="flex flex-1 items-center justify-center gap-4 text-2xl font-semibold sm:text-4xl">
          <Loader2 className="h-10 w-10 animate-spin" aria-hidden="true" /> Connecting to the game...
        </p>
      ) : (
        // A new key per game keeps the draw animation from treating another game's draws as new.
        <Board key={proof.code} proof={proof} pins={pins} theme={theme} />
      )}
    </div>
  );
}

/** Small and out of the way: the customers need the game, the shop needs to see the screen is live. */
function ConnectionStatus({ connection, theme }: { connection: StreamConnection; theme: GameTheme }) {
  if (connection === 'missing') return null;
  const live = connection === 'live';
  return (
    <p
      role="status"
      data-testid="display-connection"
      data-connection={connection}
      className={`flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold sm:text-base ${theme.panel}`}
    >
      <span
        aria-hidden="true"
        className={`h-2.5 w-2.5 rounded-full ${live ? 'bg-emerald-400' : 'animate-pulse bg-amber-400'}`}
      />
      {live ? 'Live' : connection === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
    </p>
  );
}

function NoSuchGame({ code, theme }: { code: string; theme: GameTheme }) {
  return (
    <section
      data-testid="display-missing"
      className={`mx-4 my-10 flex flex-col items-center gap-4 rounded-3xl p-10 text-center sm:mx-auto sm:max-w-2xl ${theme.panel}`}
    >
      <SearchX className="h-16 w-16" aria-hidden="true" />
      <h2 className="text-3xl font-black sm:text-5xl">No game with this code</h2>
      <p className={`text-lg sm:text-2xl ${theme.muted}`}>
        There is no game <span className="font-mono font-bold break-all">{code}</span>. Open the customer display again
        from the shop&apos;s game screen.
      </p>
    </section>
  );
}

/**
 * A new draw is shown large first; the grid and the list of draws take it in once it settles.
 * Draws already made when the screen opened (or reconnected after a page load) are simply shown.
 */
function useSpotlight(draws: readonly GameDraw[]) {
  const [known, setKnown] = useState(draws.length);
  const [spotlight, setSpotlight] = useState<GameDraw | null>(null);
  const [justSettled, setJustSettled] = useState<number | null>(null);
  if (draws.length !== known) {
    setKnown(draws.length);
    const newest = draws[draws.length - 1];
    setSpotlight(draws.length > known && newest ? newest : null);
  }
  useEffect(() => {
    if (!spotlight) return;
    const timer = setTimeout(() => {
      setJustSettled(spotlight.position);
      setSpotlight(null);
    }, SPOTLIGHT_MS);
    return () => clearTimeout(timer);
  }, [spotlight]);
  const settled = spotlight ? draws.filter((draw) => draw.position < spotlight.position) : draws;
  return { spotlight, settled, justSettled };
}

function Board({ proof, pins, theme }: { proof: GameProof; pins: readonly PinnedChain[]; theme: GameTheme }) {
  const { spotlight, settled, justSettled } = useSpotlight(proof.draws);
  const poolCents = decimalToCents(proof.pool);
  const ended = proof.status !== 'open' && proof.status !== 'drawing';
  const prizeOf = (position: number) => proof.prizes.find((p) => p.position === position);
  const wait = awaitedRound(proof);

  return (
    <>
      {/* While the draw waits for its round, the wait comes first: above the numbers on a phone,
          above the prizes beside them on a wide screen. */}
      <main
        className={`grid flex-1 gap-4 px-4 pb-6 sm:px-8 lg:grid-cols-[minmax(0,1fr)_30rem] lg:gap-x-8 2xl:grid-cols-[minmax(0,1fr)_40rem] ${
          wait ? 'lg:grid-rows-[auto_minmax(0,1fr)]' : ''
        }`}
      >
        {wait && (
          <div className="min-w-0 lg:col-start-2 lg:row-start-1">
            <BeaconWaitView wait={wait} theme={theme} size="room" note={WAIT_NOTE} />
          </div>
        )}
        <section
          aria-label="Numbers"
          className={`flex min-w-0 flex-col gap-4 ${wait ? 'lg:col-start-1 lg:row-span-2 lg:row-start-1' : ''}`}
        >
          <Facts proof={proof} theme={theme} />
          <Grid proof={proof} settled={settled} justSettled={justSettled} theme={theme} />
        </section>
        <aside
          aria-label="Prizes and winners"
          className={`flex min-w-0 flex-col gap-4 ${wait ? 'lg:col-start-2 lg:row-start-2' : ''}`}
        >
          <Prizes
            proof={proof}
            settled={settled}
            justSettled={justSettled}
            poolCents={poolCents}
            waitingFor={wait?.round ?? null}
            theme={theme}
          />
          {ended && !spotlight && <Outcome proof={proof} pins={pins} theme={theme} />}
        </aside>
      </main>
      {spotlight && (
        <Spotlight key={spotlight.position} draw={spotlight} prize={prizeOf(spotlight.position)} proof={proof} />
      )}
    </>
  );
}

function Facts({ proof, theme }: { proof: GameProof; theme: GameTheme }) {
  return (
    <div className={`rounded-2xl px-5 py-4 ${theme.panel}`}>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:flex sm:flex-wrap sm:justify-between">
        <Fact label="Bet" theme={theme}>
          {money(proof.betAmount)}
        </Fact>
        <Fact label="Pool" theme={theme} testId="display-pool" accent>
          {money(proof.pool)}
        </Fact>
        <Fact label="Numbers sold" theme={theme} testId="display-sold">
          {proof.entries.length} of {proof.endRange - proof.startRange + 1}
        </Fact>
        <Fact label="Seed fingerprint" theme={theme} testId="display-fingerprint" mono>
          {commitmentFingerprint(proof.commitment)}
        </Fact>
      </dl>
      <ProtocolLine proof={proof} />
    </div>
  );
}

/** How the draws are made: the public drand round, or LOT-DRAW-1's warning. */
function ProtocolLine({ proof }: { proof: GameProof }) {
  const protocol = protocolOf(proof.algorithm);
  const text = protocolText(protocol, proof.beacon);
  return protocol === 'LOT-DRAW-2' ? (
    <p
      data-testid="display-protocol"
      data-protocol={protocol}
      className="mt-3 flex items-center gap-2 text-base font-semibold sm:text-lg 2xl:text-2xl"
    >
      <Globe className="h-5 w-5 shrink-0 2xl:h-7 2xl:w-7" aria-hidden="true" />
      {text}
    </p>
  ) : (
    <p
      data-testid="display-protocol"
      data-protocol={protocol}
      className="mt-3 flex items-start gap-2 rounded-xl bg-amber-100 px-3 py-1.5 text-base font-bold text-amber-950 ring-2 ring-amber-400 sm:text-lg 2xl:text-2xl"
    >
      <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 2xl:h-7 2xl:w-7" aria-hidden="true" />
      {text}
    </p>
  );
}

function Fact({
  label,
  theme,
  children,
  testId,
  accent = false,
  mono = false,
}: {
  label: string;
  theme: GameTheme;
  children: ReactNode;
  testId?: string;
  accent?: boolean;
  mono?: boolean;
}) {
  return (
    <div className="min-w-0">
      <dt className={`text-sm font-semibold uppercase sm:text-base 2xl:text-xl ${theme.muted}`}>{label}</dt>
      <dd
        data-testid={testId}
        className={`font-black tabular-nums ${accent ? theme.accent : ''} ${
          mono ? 'font-mono text-lg sm:text-xl 2xl:text-3xl' : 'text-2xl sm:text-3xl 2xl:text-5xl'
        }`}
      >
        {children}
      </dd>
    </div>
  );
}

function numberSize(count: number): string {
  if (count <= 30) return 'text-3xl sm:text-5xl lg:text-6xl 2xl:text-8xl';
  if (count <= 60) return 'text-2xl sm:text-4xl xl:text-5xl 2xl:text-6xl';
  return 'text-xl sm:text-2xl xl:text-3xl 2xl:text-4xl';
}

/** Every number of the range: sold ones carry their (masked) buyer, drawn ones their draw. */
function Grid({
  proof,
  settled,
  justSettled,
  theme,
}: {
  proof: GameProof;
  settled: readonly GameDraw[];
  justSettled: number | null;
  theme: GameTheme;
}) {
  const numbers = numbersInRange(proof.startRange, proof.endRange);
  const sold = new Map(proof.entries.map((entry) => [entry.number, entry]));
  const drawn = new Map(settled.map((draw) => [draw.number, draw]));
  return (
    <ul
      aria-label="Numbers of the game"
      style={{ '--display-cols': `repeat(${largeColumns(numbers.length)}, minmax(0, 1fr))` } as CSSProperties}
      className="grid flex-1 grid-cols-5 gap-2 sm:grid-cols-8 sm:gap-3 lg:auto-rows-fr lg:grid-cols-(--display-cols)"
    >
      {numbers.map((number) => {
        const entry = sold.get(number);
        const draw = drawn.get(number);
        const state = draw ? (entry ? 'winner' : 'drawn') : entry ? 'sold' : 'free';
        const style =
          state === 'winner'
            ? theme.tileWinner
            : state === 'drawn'
              ? `${theme.tileDrawn.replace('line-through', '')} outline-4 outline-offset-2 outline-current`
              : state === 'sold'
                ? theme.tileSelected
                : theme.tile.replace(/hover:\S+/g, '');
        return (
          <li
            key={number}
            data-testid="display-number"
            data-number={number}
            data-state={state}
            className={`relative flex aspect-[4/3] min-h-12 flex-col items-center justify-center overflow-hidden rounded-xl font-black tabular-nums lg:aspect-auto ${style} ${numberSize(numbers.length)} ${
              draw && draw.position === justSettled ? 'display-settle' : ''
            }`}
          >
            <span className="leading-none">{number}</span>
            {(entry || draw) && (
              <span className="mt-1 hidden max-w-full truncate px-1 text-xs font-semibold sm:block lg:text-base 2xl:text-2xl">
                {entry ? entry.name : 'No winner'}
              </span>
            )}
            {draw && (
              <span className="absolute top-1 left-1.5 hidden rounded bg-black/70 px-1.5 text-xs font-bold text-white no-underline sm:block sm:text-sm 2xl:text-lg">
                Draw {draw.position}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Each prize position: what it pays for the pool as it stands, and once drawn its number and
 * winner. A game voided after its freeze shows the draws it would have made, none paid.
 */
function Prizes({
  proof,
  settled,
  justSettled,
  poolCents,
  waitingFor,
  theme,
}: {
  proof: GameProof;
  settled: readonly GameDraw[];
  justSettled: number | null;
  poolCents: number;
  /** The beacon round the next draw waits for. */
  waitingFor: number | null;
  theme: GameTheme;
}) {
  const byPosition = new Map(settled.map((draw) => [draw.position, draw]));
  const unplayed = new Map(proof.unplayedDraws.map((draw) => [draw.position, draw]));
  const next = proof.status === 'open' || proof.status === 'drawing' ? settled.length + 1 : null;
  const notPaid = voidedNotPaidText(proof.voidedBy, proof.voidReason);
  return (
    <section className={`rounded-2xl p-4 sm:p-5 ${theme.panel}`}>
      <h2 className="mb-3 text-xl font-bold tracking-wide uppercase sm:text-2xl 2xl:text-3xl">
        Prizes{' '}
        <span className={`font-semibold normal-case ${theme.muted}`}>
          · {settled.length} of {proof.prizes.length} drawn
        </span>
      </h2>
      {proof.prizes.length === 0 ? (
        <p className={`text-xl ${theme.muted}`}>This game has no prizes.</p>
      ) : (
        <ol className="space-y-3">
          {proof.prizes.map((prize, index) => {
            const draw = byPosition.get(prize.position);
            const winner = draw?.winner ?? null;
            const wouldHave = draw ? undefined : unplayed.get(prize.position);
            return (
              <li
                key={prize.position}
                data-testid="display-prize"
                data-position={prize.position}
                className={`flex items-center gap-3 rounded-xl p-1 sm:gap-4 ${
                  draw && draw.position === justSettled ? 'display-settle' : ''
                }`}
              >
                <span
                  data-testid={draw ? 'display-draw' : wouldHave ? 'display-unplayed' : undefined}
                  data-number={draw?.number ?? wouldHave?.number}
                  className={`flex h-14 w-16 shrink-0 items-center justify-center rounded-xl text-3xl font-black tabular-nums 2xl:h-20 2xl:w-24 2xl:text-5xl ${
                    draw === undefined
                      ? `${theme.tile.replace(/hover:\S+/g, '')} ${wouldHave ? 'line-through opacity-80' : ''}`
                      : winner
                        ? theme.tileWinner
                        : theme.tileDrawn
                  }`}
                >
                  {draw?.number ?? wouldHave?.number ?? '?'}
                </span>
                <span className="min-w-0 flex-1">
                  <span className={`block truncate text-base font-semibold uppercase 2xl:text-2xl ${theme.muted}`}>
                    {index + 1}. {prize.name} · {percent(prize.percentBps)}%
                  </span>
                  {wouldHave ? (
                    <span data-testid="display-not-paid" className="block">
                      <span className="block text-xl font-bold break-words sm:text-2xl 2xl:text-3xl">
                        {winnerText(wouldHave.winner)}
                      </span>
                      <span className="block text-base font-semibold break-words sm:text-lg 2xl:text-2xl">
                        {notPaid}
                      </span>
                    </span>
                  ) : (
                    <span
                      data-testid={draw ? 'display-winner' : undefined}
                      className="block text-xl font-bold break-words sm:text-2xl 2xl:text-3xl"
                    >
                      {draw === undefined
                        ? next === prize.position
                          ? waitingFor === null
                            ? 'Next draw'
                            : `Next draw · round ${waitingFor}`
                          : 'Not drawn yet'
                        : winnerText(winner)}
                    </span>
                  )}
                  {draw?.claim && (
                    <span
                      data-testid="display-claim"
                      className="block text-base font-semibold break-words sm:text-lg 2xl:text-2xl"
                    >
                      {claimStatusText(draw.claim)}
                    </span>
                  )}
                </span>
                <span
                  className={`shrink-0 text-right text-xl font-black tabular-nums sm:text-2xl 2xl:text-4xl ${
                    (draw && !winner) || wouldHave ? `line-through ${theme.muted}` : theme.accent
                  }`}
                >
                  {formatMoney(prizeFor(poolCents, prize.percentBps))}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** The newest draw, large, over everything; then it settles into the grid and the list. */
function Spotlight({
  draw,
  prize,
  proof,
}: {
  draw: GameDraw;
  prize: GameProof['prizes'][number] | undefined;
  proof: GameProof;
}) {
  const style = { '--spotlight-ms': `${SPOTLIGHT_MS}ms` } as CSSProperties;
  return (
    <div
      data-testid="display-spotlight"
      data-number={draw.number}
      role="status"
      aria-live="assertive"
      style={style}
      className="display-spotlight-backdrop fixed inset-0 z-40 flex items-center justify-center bg-black/75 p-4"
    >
      <div className="display-spotlight-card flex flex-col items-center gap-4 text-center text-white sm:gap-6">
        <p className="text-2xl font-bold tracking-wide uppercase sm:text-4xl 2xl:text-5xl">
          Draw {draw.position} of {proof.prizes.length}
          {prize ? ` · ${prize.name}` : ''}
        </p>
        <p
          className={`flex min-w-[1.6em] items-center justify-center rounded-[0.2em] px-[0.15em] text-[min(42vh,55vw)] leading-[1.1] font-black tabular-nums shadow-2xl ${
            draw.winner ? 'bg-emerald-300 text-slate-950' : 'bg-yellow-300 text-slate-950'
          }`}
        >
          {draw.number}
        </p>
        <p className="text-3xl font-black sm:text-5xl 2xl:text-6xl">
          {draw.winner ? `${draw.winner.name} wins ${money(draw.prizeAmount)}` : 'No winner'}
        </p>
      </div>
    </div>
  );
}

/** How the game ended: settled (checked here, with the way to check it yourself) or voided. */
function Outcome({ proof, pins, theme }: { proof: GameProof; pins: readonly PinnedChain[]; theme: GameTheme }) {
  // The public base (lib/public-url.ts): the way to check shows once it is known.
  const { base } = usePublicBase();
  const verifyUrl = base && publicHref(base, `/verify/${proof.code}`);
  const shortUrl = base && `${new URL(base).host}/verify/${proof.code}`;
  return (
    <section data-testid="display-outcome" className={`rounded-2xl p-4 sm:p-5 ${theme.panel}`}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center 2xl:gap-6">
        <div className="min-w-0 flex-1">
          {proof.status === 'settled' ? (
            <SettledVerdict proof={proof} pins={pins} theme={theme} />
          ) : (
            <div data-testid="display-ended">
              <p className="text-4xl font-black 2xl:text-6xl">{proof.status === 'voided' ? 'Voided' : 'Discarded'}</p>
              {proof.voidReason && (
                <p className="mt-2 text-xl font-semibold break-words 2xl:text-3xl">Reason: {proof.voidReason}</p>
              )}
              <p className={`mt-1 text-base 2xl:text-xl ${theme.muted}`}>
                {proof.status === 'voided'
                  ? 'The game was stopped and the pool returned; no prizes are paid.'
                  : 'The game ended before any draw.'}
              </p>
            </div>
          )}
          {shortUrl && (
            <>
              <p className={`mt-3 text-base 2xl:text-xl ${theme.muted}`}>Check it yourself:</p>
              <p data-testid="display-verify-url" className="font-mono text-base font-bold break-all 2xl:text-xl">
                {shortUrl}
              </p>
            </>
          )}
        </div>
        {verifyUrl && (
          <div data-testid="display-qr" className="shrink-0 self-center">
            <QrCode
              value={verifyUrl}
              label={`QR code of ${verifyUrl}`}
              className="h-44 w-44 rounded-lg sm:h-48 sm:w-48 2xl:h-64 2xl:w-64"
            />
          </div>
        )}
      </div>
    </section>
  );
}

function SettledVerdict({ proof, pins, theme }: { proof: GameProof; pins: readonly PinnedChain[]; theme: GameTheme }) {
  const check = useProofCheck(proof, pins);
  if (check.isError) {
    return (
      <p role="alert" className="flex items-start gap-3 text-xl font-semibold 2xl:text-2xl">
        <ShieldAlert className="h-8 w-8 shrink-0" aria-hidden="true" />
        This screen could not run the check ({String(check.error)}). Scan the code to check it on your phone.
      </p>
    );
  }
  if (!check.data) {
    return (
      <p role="status" className="flex items-center gap-3 text-xl font-semibold 2xl:text-3xl">
        <Loader2 className="h-8 w-8 animate-spin" aria-hidden="true" /> Checking the game...
      </p>
    );
  }
  return <Verdict report={check.data.report} round={proof.beacon?.round ?? null} theme={theme} />;
}

function Verdict({ report, round, theme }: { report: ProofReport; round: number | null; theme: GameTheme }) {
  if (report.verdict === 'verified') {
    return (
      <div data-testid="display-verdict" data-verdict="verified">
        <p className="inline-flex items-center gap-3 rounded-2xl bg-emerald-700 px-5 py-2 text-4xl font-black text-white 2xl:text-6xl">
          <CheckCircle2 className="h-10 w-10 shrink-0 2xl:h-14 2xl:w-14" aria-hidden="true" />
          <span>Verified</span>
        </p>
        <p className={`mt-2 text-base 2xl:text-xl ${theme.muted}`}>
          Checked on this screen: every draw follows from the seed the shop committed to before the game
          {round === null ? '' : ` and from drand round ${round}, published after the entries were fixed`}.
        </p>
      </div>
    );
  }
  const failures = report.checks.filter((check) => !check.ok);
  return (
    <div role="alert" data-testid="display-verdict" data-verdict={report.verdict}>
      <p className="flex items-center gap-3 text-4xl font-black 2xl:text-6xl">
        <XCircle className="h-10 w-10 shrink-0 text-rose-400 2xl:h-14 2xl:w-14" aria-hidden="true" />
        <span>Not verified</span>
      </p>
      <ul className="mt-2 space-y-1 text-base 2xl:text-xl">
        {failures.map((check) => (
          <li key={check.name}>
            <span className="font-bold">{check.name} failed:</span> {check.detail}
          </li>
        ))}
        {failures.length === 0 && <li>The check did not finish: the game has not ended.</li>}
      </ul>
    </div>
  );
}
