import { CheckCircle2, Loader2, ShieldAlert, XCircle } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import type { PinnedChain, ProofReport } from '@lot/domain/verify';
import { UnpinnedChain } from '../../../lib/game/unpinned-chain.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { proofLink, usePublicBase } from '../../../lib/public-url.ts';
import { useProofCheck } from '../../../lib/game/use-proof-check.ts';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/** How the game ended: settled (checked here, with the way to check it yourself) or voided. */
export function DisplayOutcome({
  proof,
  pins,
  theme,
}: {
  proof: GameProof;
  pins: readonly PinnedChain[];
  theme: GameTheme;
}) {
  // The public base (lib/public-url.ts): the way to check shows once it is known.
  const { base } = usePublicBase();
  const verifyUrl = base && proofLink(base, proof.code);
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
  return (
    <Verdict
      report={check.data.report}
      round={proof.beacon?.round ?? null}
      chain={proof.beacon?.chainHash ?? ''}
      theme={theme}
    />
  );
}

function Verdict({
  report,
  round,
  chain,
  theme,
}: {
  report: ProofReport;
  round: number | null;
  chain: string;
  theme: GameTheme;
}) {
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
  if (report.verdict === 'unpinned') {
    // Another chain than drand quicknet: named, and how to check it, not a red "Not verified".
    return (
      <div data-testid="display-verdict" data-verdict="unpinned">
        <p className="flex items-start gap-3 text-lg font-semibold 2xl:text-2xl">
          <ShieldAlert className="h-7 w-7 shrink-0 text-amber-400 2xl:h-9 2xl:w-9" aria-hidden="true" />
          <span data-testid="display-unpinned" className="min-w-0">
            <UnpinnedChain chainHash={chain} />
          </span>
        </p>
        <p className={`mt-2 text-base 2xl:text-xl ${theme.muted}`}>
          Every other check passed on this screen. Scan the code and pin the chain to check the draws.
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
