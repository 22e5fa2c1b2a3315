import { useQuery } from '@tanstack/react-query';
import { SearchX, ShieldCheck } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import { isCleanlyDiscarded } from '@lot/domain/verify';
import { ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { gameProofQuery, isNotFound } from '../api/get-game-proof.ts';
import { usePins } from '../../../lib/game/use-pins.ts';
import { useProofCheck } from '../../../lib/game/use-proof-check.ts';
import type { VerifyPins } from '../../../lib/game/verify-pins.ts';
import { useNow } from '../hooks/use-now.ts';
import { BeaconBlock } from './verify-beacon.tsx';
import { DrawsAndPrizes } from './verify-draws.tsx';
import { EntriesSection } from './verify-entries.tsx';
import { FindMyEntry } from './verify-find-entry.tsx';
import { GameLogBlock } from './verify-game-log.tsx';
import { ProofDetails } from './verify-proof-details.tsx';
import { DiscardedView, notPaidText, ProofSummary } from './verify-summary.tsx';
import { Verdict } from './verify-verdict.tsx';
import { waitingRound, waitingText } from './verify-waiting.ts';

/** Asked again while a game is in play or waits for round R: each draw (and R) shows without a reload. */
const LIVE_REFRESH_MS = 3000;

/**
 * The public proof of one game (/verify/{code}, no sign-in): the page fetches what the server
 * published, re-checks it in this browser (LOT-DRAW-2 or LOT-DRAW-1, verifyProof) against the beacon
 * chains it pins (drand quicknet, or one `?chain=&publicKey=` pins) and the game log's keys it pins
 * (`?log=`, `?witness=`), and says plainly whether it
 * holds and what its protocol proves; a participant can find their own numbers. A game in play is
 * asked for again every few seconds, so its freeze, round R and draws show as they happen.
 */
export function VerifyPage({ code }: { code: string }) {
  const pins = usePins();
  const proof = useQuery({
    ...gameProofQuery(code),
    refetchInterval: (query) => {
      const proof = query.state.data;
      return proof && (proof.status === 'open' || waitingRound(proof) || proof.status === 'drawing')
        ? LIVE_REFRESH_MS
        : false;
    },
  });
  return (
    <div className="min-h-screen bg-slate-50 text-slate-900">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center gap-2 px-4 py-3 sm:px-6">
          <ShieldCheck className="h-6 w-6 text-indigo-600" aria-hidden="true" />
          <p className="font-bold tracking-wide">LOT · Game verification</p>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
        {proof.isPending ? (
          <Spinner label="Loading the game's proof..." />
        ) : proof.isError ? (
          isNotFound(proof.error) ? (
            <NotFound code={code} />
          ) : (
            <ErrorPanel message="Failed to fetch the game's proof" onRetry={() => void proof.refetch()} />
          )
        ) : (
          <ProofView proof={proof.data} pins={pins} />
        )}
      </main>
    </div>
  );
}

function NotFound({ code }: { code: string }) {
  return (
    <section className="flex flex-col items-center gap-3 rounded-2xl bg-white p-10 text-center shadow-sm ring-1 ring-slate-200">
      <SearchX className="h-10 w-10 text-slate-300" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Game Not Found</h1>
      <p className="max-w-md text-sm text-slate-500">
        No game has the code <span className="font-mono font-semibold break-all text-slate-700">{code}</span>. Check the
        code on your slip or ask the shop.
      </p>
    </section>
  );
}

function ProofView({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  return isCleanlyDiscarded(proof) ? <DiscardedView proof={proof} /> : <CheckedProofView proof={proof} pins={pins} />;
}

function CheckedProofView({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  const check = useProofCheck(proof, pins.pins, pins.log);
  const report = check.data?.report;
  const waiting = waitingRound(proof);
  const now = useNow(waiting !== null);
  const notPaid = proof.status === 'voided' ? notPaidText(proof) : null;
  return (
    <>
      <ProofSummary
        proof={proof}
        pins={pins}
        verdict={
          <Verdict
            report={report}
            ms={check.data?.ms}
            failed={check.isError ? String(check.error) : null}
            beacon={proof.algorithm === 'LOT-DRAW-2'}
            status={proof.status}
            chain={proof.beacon?.chainHash ?? null}
            waiting={waiting ? waitingText(proof, waiting.round, waiting.expectedAt, now) : null}
          />
        }
      />

      <BeaconBlock proof={proof} report={report} pins={pins} now={now} />

      <GameLogBlock proof={proof} report={report} pins={pins.log} />

      <DrawsAndPrizes proof={proof} waiting={waiting} notPaid={notPaid} />

      <FindMyEntry proof={proof} />

      <EntriesSection proof={proof} />

      <ProofDetails proof={proof} report={report} />
    </>
  );
}
