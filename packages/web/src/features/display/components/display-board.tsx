import type { ReactNode } from 'react';
import { AlertTriangle, Globe } from 'lucide-react';
import { commitmentFingerprint } from '@lot/domain/draw';
import type { GameProof } from '@lot/domain/schemas/games';
import type { PinnedChain } from '@lot/domain/verify';
import { money } from '../../../lib/format.ts';
import { awaitedRound } from '../../../lib/game/beacon-wait.ts';
import { useSpotlight } from '../hooks/use-spotlight.ts';
import { BeaconWaitView } from '../../../components/game/beacon-wait-view.tsx';
import { DisplayGrid } from './display-grid.tsx';
import { DisplayOutcome } from './display-outcome.tsx';
import { DisplayPrizes } from './display-prizes.tsx';
import { Spotlight } from './display-spotlight.tsx';
import { protocolOf, protocolText } from '../../../lib/game/draw-protocol.ts';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

const WAIT_NOTE = 'The numbers are fixed. The draw uses this public random number, which nobody can know in advance.';

/** One game on the customer display: its facts and numbers, its prizes and winners, how it ended. */
export function DisplayBoard({
  proof,
  pins,
  theme,
}: {
  proof: GameProof;
  pins: readonly PinnedChain[];
  theme: GameTheme;
}) {
  const { spotlight, settled, justSettled } = useSpotlight(proof.draws);
  const ended = proof.status !== 'open' && proof.status !== 'drawing';
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
          <DisplayGrid proof={proof} settled={settled} justSettled={justSettled} theme={theme} />
        </section>
        <aside
          aria-label="Prizes and winners"
          className={`flex min-w-0 flex-col gap-4 ${wait ? 'lg:col-start-2 lg:row-start-2' : ''}`}
        >
          <DisplayPrizes
            proof={proof}
            settled={settled}
            justSettled={justSettled}
            waitingFor={wait?.round ?? null}
            theme={theme}
          />
          {ended && !spotlight && <DisplayOutcome proof={proof} pins={pins} theme={theme} />}
        </aside>
      </main>
      {spotlight && <Spotlight key={spotlight.position} draw={spotlight} proof={proof} />}
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
