import { CheckCircle2, Clock, Loader2, ShieldAlert, XCircle } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import type { ProofReport } from '@lot/domain/verify';
import { UnpinnedChain } from '../../../lib/game/unpinned-chain.tsx';

/** What a verified game's checks established, for its protocol and how it ended. */
function verifiedText(status: GameProof['status'], beacon: boolean): string {
  const seed = 'Every check passed: the seed matches the commitment published when the game opened';
  const round = beacon ? ', the public round was published after the freeze and signed by a pinned chain' : '';
  const from = beacon ? 'them' : 'it';
  if (status === 'voided')
    return `${seed}${round}, and the draws made and the unplayed ones follow from ${from}. No prize was paid.`;
  return `${seed}${round}, and every draw, prize and the commission follow from ${from}.`;
}

/**
 * The verdict in plain words: Verified, pending (the seed is still secret, or round R is awaited), a
 * chain this page does not pin (named, with how to pin it, rather than a bare "Not verified"), or
 * the checks that failed. `data-verify-ms` holds how long the check took in this browser.
 */
export function Verdict({
  report,
  ms,
  failed,
  waiting,
  beacon,
  status,
  chain,
}: {
  report: ProofReport | undefined;
  ms: number | undefined;
  failed: string | null;
  /** A LOT-DRAW-2 game waiting for its round: what the pending verdict says. */
  waiting: string | null;
  /** LOT-DRAW-2: the verified verdict names the beacon too. */
  beacon: boolean;
  status: GameProof['status'];
  /** LOT-DRAW-2: the chain the proof names (what an unpinned verdict says). */
  chain?: string | null;
}) {
  if (failed)
    return (
      <p role="alert" className="flex items-start gap-3 rounded-xl bg-slate-100 p-4 text-slate-700">
        <ShieldAlert className="h-6 w-6 shrink-0" aria-hidden="true" />
        This browser could not run the check ({failed}). Open the page over https or on another device.
      </p>
    );
  if (!report)
    return (
      <p role="status" className="flex items-center gap-3 rounded-xl bg-slate-50 p-4 text-slate-600">
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" /> Checking the game in this browser...
      </p>
    );
  const timing = ms === undefined ? {} : { 'data-verify-ms': ms.toFixed(1) };
  if (report.verdict === 'verified')
    return (
      <div
        data-testid="verdict"
        data-verdict="verified"
        {...timing}
        className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200"
      >
        <p className="flex items-center gap-2 text-2xl font-black text-emerald-800">
          <CheckCircle2 className="h-7 w-7" aria-hidden="true" /> Verified
        </p>
        <p className="mt-1 text-sm text-emerald-900">{verifiedText(status, beacon)}</p>
      </div>
    );
  if (report.verdict === 'pending')
    return (
      <div
        data-testid="verdict"
        data-verdict="pending"
        data-waiting-for={report.waitingFor ?? undefined}
        {...timing}
        className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200"
      >
        <p className="flex items-center gap-2 text-2xl font-black text-amber-800">
          <Clock className="h-7 w-7" aria-hidden="true" /> Pending
        </p>
        <p className="mt-1 text-sm text-amber-900" data-testid={waiting ? 'verify-waiting' : undefined}>
          {waiting
            ? `${waiting} Everything that can be checked now passed.`
            : 'The game is still in play: the seed is revealed when the game ends. Everything that can be checked now passed.'}
        </p>
      </div>
    );
  if (report.verdict === 'unpinned')
    return (
      <div
        data-testid="verdict"
        data-verdict="unpinned"
        {...timing}
        className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300"
      >
        <p className="flex items-start gap-2 font-semibold text-amber-900 sm:text-lg">
          <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 sm:h-6 sm:w-6" aria-hidden="true" />
          <span data-testid="verdict-unpinned" className="min-w-0">
            <UnpinnedChain chainHash={chain ?? ''} />
          </span>
        </p>
        <p className="mt-1 text-sm text-amber-900">
          Every other check passed. Open this page with the chain pinned (a link with <code>?chain=</code> and{' '}
          <code>&amp;publicKey=</code> from someone you trust) to check the round and the draws too.
        </p>
      </div>
    );
  const failures = report.checks.filter((c) => !c.ok);
  return (
    <div
      role="alert"
      data-testid="verdict"
      data-verdict="failed"
      {...timing}
      className="rounded-xl bg-rose-50 p-4 ring-1 ring-rose-200"
    >
      <p className="flex items-center gap-2 text-2xl font-black text-rose-800">
        <XCircle className="h-7 w-7" aria-hidden="true" /> Not verified
      </p>
      <ul className="mt-2 space-y-1 text-sm text-rose-900">
        {failures.map((check) => (
          <li key={check.name} data-testid="verdict-failure" data-check={check.name}>
            <span className="font-semibold">{check.name} failed:</span> {check.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}
