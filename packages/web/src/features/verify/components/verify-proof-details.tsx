import { CheckCircle2, XCircle } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import type { ProofReport } from '@lot/domain/verify';
import { Section } from './verify-section.tsx';

/**
 * The proof itself: the protocol, the commitment, the entries digest and the seed (once revealed),
 * each check made in this browser, and how the check works for the game's protocol.
 */
export function ProofDetails({ proof, report }: { proof: GameProof; report: ProofReport | undefined }) {
  return (
    <Section title="Proof">
      <dl className="space-y-3 text-sm">
        <Hash label="Algorithm" value={proof.algorithm} testId="verify-algorithm" />
        <Hash
          label={
            proof.algorithm === 'LOT-DRAW-2'
              ? 'Commitment (SHA-256 of the protocol, the beacon chain and the seed, published when the game opened)'
              : 'Commitment (SHA-256 of the seed, published when the game opened)'
          }
          value={proof.commitment}
        />
        <Hash
          label="Entries digest (the game, its prizes and its entries, fixed before the first draw)"
          value={proof.entriesDigest}
        />
        <Hash
          label="Server seed"
          value={proof.serverSeed ?? 'Secret until the game ends: the seed is revealed when the game ends.'}
          muted={proof.serverSeed === null}
          testId="verify-seed"
        />
      </dl>
      {report && <Checks report={report} />}
      <details className="mt-4 text-sm text-slate-600">
        <summary className="cursor-pointer font-semibold text-slate-700">How this check works</summary>
        {proof.algorithm === 'LOT-DRAW-2' ? (
          <p className="mt-2">
            When the game opened, the server chose a secret seed and published a commitment to it and to the beacon
            chain. Each entry is hashed (number, name, phone and the entry code on the slip), and the game, its prizes
            and the entry hashes are hashed together into the entries digest. The first draw froze the entries; the
            draws then wait for round R of the public beacon, the first round published after the freeze, which nobody
            could know at that moment. Draw k is HMAC-SHA256(seed, “LOT-DRAW-2:digest:randomness:k:c”): its first 4
            bytes pick one of the numbers not drawn yet, without bias. This page checks R&apos;s signature against the
            chain&apos;s public key and, once the seed is revealed, recomputes the commitment, the digest, every draw,
            every prize and the commission in your browser.
          </p>
        ) : (
          <p className="mt-2">
            Before any participant was entered, the server chose a secret seed and published its SHA-256, the
            commitment. Each entry is hashed (number, name and phone) and the game, its prizes and the entry hashes are
            hashed together into the entries digest. Draw k is HMAC-SHA256(seed, digest:k:c): its first 4 bytes pick one
            of the numbers not drawn yet, without bias. When the game ends the seed is revealed, and this page
            recomputes the commitment, the digest, every draw, every prize and the commission in your browser. Whoever
            held the seed before then could compute the draws in advance.
          </p>
        )}
      </details>
    </Section>
  );
}

function Checks({ report }: { report: ProofReport }) {
  return (
    <ul className="mt-4 grid gap-1.5 text-sm sm:grid-cols-2" aria-label="Checks">
      {report.checks.map((check) => (
        <li
          key={check.name}
          data-testid="verify-check"
          data-check={check.name}
          data-ok={check.ok}
          className={`flex min-w-0 items-start gap-2 ${check.ok ? '' : '-mx-2 rounded-md bg-rose-50 px-2 py-1 ring-1 ring-rose-200'}`}
        >
          {check.ok ? (
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" aria-label="passed" />
          ) : (
            <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-rose-600" aria-label="failed" />
          )}
          <span className="min-w-0 break-words">
            <span className={`font-semibold ${check.ok ? '' : 'text-rose-800'}`}>{check.name}</span>{' '}
            <span className={check.ok ? 'text-slate-500' : 'text-rose-800'}>{check.detail}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function Hash({
  label,
  value,
  muted = false,
  testId,
}: {
  label: string;
  value: string;
  muted?: boolean;
  testId?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd
        data-testid={testId}
        className={`mt-0.5 font-mono text-xs break-all sm:text-sm ${muted ? 'text-slate-500 italic' : ''}`}
      >
        {value}
      </dd>
    </div>
  );
}
