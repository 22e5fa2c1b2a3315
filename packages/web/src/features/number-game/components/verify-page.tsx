import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, Loader2, Search, SearchX, ShieldAlert, ShieldCheck, XCircle } from 'lucide-react';
import { formatBps } from '@lot/domain/game';
import type { GameProof } from '@lot/domain/schemas/games';
import { findOwnEntries, verifyProof, type ProofReport } from '@lot/domain/verify';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { isNotFound, useGameProof } from '../api/get-game-proof.ts';

const STATUS_LABEL: Record<GameProof['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

/**
 * The public proof of one game (/verify/{code}, no sign-in): the page fetches what the server
 * published, re-checks it in this browser (LOT-DRAW-1, docs/lot-draw-1.md) and says plainly whether
 * it holds; a participant can find their own entry by their name and phone.
 */
export function VerifyPage({ code }: { code: string }) {
  const proof = useGameProof(code);
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
          <ProofView proof={proof.data} />
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

function ProofView({ proof }: { proof: GameProof }) {
  const report = useQuery({
    queryKey: ['verify', proof.code, 'report', proof],
    queryFn: () => verifyProof(proof),
    retry: false,
    staleTime: Infinity,
  });
  const drawnNumbers = new Set(proof.draws.map((d) => d.number));
  return (
    <>
      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-500">{proof.shopName}</p>
            <h1 className="mt-1 font-mono text-xl font-bold break-all sm:text-4xl" data-testid="verify-code">
              {proof.code}
            </h1>
            <p className="mt-1 text-sm text-slate-500">
              Opened {dateTime(proof.openedAt)}
              {proof.endedAt && ` · ended ${dateTime(proof.endedAt)}`}
            </p>
          </div>
          <span
            data-testid="verify-status"
            className={`rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${
              proof.status === 'settled'
                ? 'bg-emerald-50 text-emerald-700 ring-emerald-600/20'
                : proof.status === 'voided' || proof.status === 'discarded'
                  ? 'bg-slate-100 text-slate-600 ring-slate-500/20'
                  : 'bg-amber-50 text-amber-700 ring-amber-600/20'
            }`}
          >
            {STATUS_LABEL[proof.status]}
          </span>
        </div>
        <div className="mt-5">
          <Verdict report={report.data} failed={report.isError ? String(report.error) : null} />
        </div>
        {proof.voidReason && (
          <p className="mt-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
            <span className="font-semibold">Voided:</span> {proof.voidReason}
          </p>
        )}
        <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3 lg:grid-cols-6">
          <Fact label="Range" value={`${proof.startRange}–${proof.endRange}`} />
          <Fact label="Bet" value={money(proof.betAmount)} />
          <Fact label="Entries" value={String(proof.entries.length)} />
          <Fact label="Pool" value={money(proof.pool)} testId="verify-pool" />
          <Fact label="Prizes paid" value={proof.totalPrize === null ? '—' : money(proof.totalPrize)} />
          <Fact label="Commission" value={proof.commission === null ? '—' : money(proof.commission)} />
        </dl>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Draws">
          {proof.draws.length === 0 ? (
            <p className="text-sm text-slate-500">Nothing has been drawn yet.</p>
          ) : (
            <ol className="divide-y divide-slate-100">
              {proof.draws.map((draw) => {
                const prize = proof.prizes.find((p) => p.position === draw.position);
                return (
                  <li key={draw.position} data-testid="verify-draw" className="flex items-center gap-3 py-2.5">
                    <span
                      className={`flex h-11 w-12 shrink-0 items-center justify-center rounded-lg text-xl font-black ${
                        draw.winner ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-700'
                      }`}
                    >
                      {draw.number}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block text-xs font-semibold text-slate-500 uppercase">
                        #{draw.position} {prize?.name}
                      </span>
                      <span className="block truncate font-semibold">
                        {draw.winner ? `${draw.winner.name} · ${draw.winner.phoneNumber}` : 'No winner'}
                      </span>
                      <span className="block text-xs text-slate-500">{dateTime(draw.drawnAt)}</span>
                    </span>
                    <span className="shrink-0 font-bold tabular-nums">
                      {draw.winner ? money(draw.prizeAmount) : '—'}
                    </span>
                  </li>
                );
              })}
            </ol>
          )}
        </Section>
        <Section title="Prizes">
          <ol className="divide-y divide-slate-100">
            {proof.prizes.map((prize) => (
              <li key={prize.position} className="flex items-center justify-between gap-3 py-2 text-sm">
                <span className="min-w-0 truncate">
                  <span className="mr-2 font-semibold text-slate-500">#{prize.position}</span>
                  {prize.name}
                </span>
                <span className="font-semibold tabular-nums">{formatBps(prize.percentBps)}%</span>
              </li>
            ))}
          </ol>
        </Section>
      </div>

      <FindMyEntry proof={proof} />

      <Section title={`Entries (${proof.entries.length})`}>
        {proof.entries.length === 0 ? (
          <p className="text-sm text-slate-500">No participants were entered.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {[...proof.entries]
              .sort((a, b) => a.number - b.number)
              .map((entry) => (
                <li key={entry.number} data-testid="verify-entry" className="flex gap-3 py-2.5">
                  <span
                    className={`flex h-9 w-11 shrink-0 items-center justify-center rounded-lg font-black ${
                      drawnNumbers.has(entry.number) ? 'bg-emerald-600 text-white' : 'bg-indigo-50 text-indigo-700'
                    }`}
                  >
                    {entry.number}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-semibold">
                      {entry.name} · {entry.phoneNumber}
                    </span>
                    <span className="block font-mono text-xs break-all text-slate-500">{entry.entryHash}</span>
                  </span>
                </li>
              ))}
          </ul>
        )}
      </Section>

      <Section title="Proof">
        <dl className="space-y-3 text-sm">
          <Hash label="Algorithm" value={proof.algorithm} />
          <Hash label="Commitment (SHA-256 of the seed, published when the game opened)" value={proof.commitment} />
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
        {report.data && <Checks report={report.data} />}
        <details className="mt-4 text-sm text-slate-600">
          <summary className="cursor-pointer font-semibold text-slate-700">How this check works</summary>
          <p className="mt-2">
            Before any participant was entered, the server chose a secret seed and published its SHA-256, the
            commitment. Each entry is hashed (number, name and phone) and the game, its prizes and the entry hashes are
            hashed together into the entries digest. Draw k is HMAC-SHA256(seed, digest:k:c): its first 4 bytes pick one
            of the numbers not drawn yet, without bias. When the game ends the seed is revealed, and this page
            recomputes the commitment, the digest, every draw, every prize and the commission in your browser.
          </p>
        </details>
      </Section>
    </>
  );
}

/** The verdict in plain words: Verified, pending (the seed is still secret), or the check that failed. */
function Verdict({ report, failed }: { report: ProofReport | undefined; failed: string | null }) {
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
  if (report.verdict === 'verified')
    return (
      <div
        data-testid="verdict"
        data-verdict="verified"
        className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200"
      >
        <p className="flex items-center gap-2 text-2xl font-black text-emerald-800">
          <CheckCircle2 className="h-7 w-7" aria-hidden="true" /> Verified
        </p>
        <p className="mt-1 text-sm text-emerald-900">
          Every check passed: the seed matches the commitment published when the game opened, and every draw, prize and
          the commission follow from it.
        </p>
      </div>
    );
  if (report.verdict === 'pending')
    return (
      <div data-testid="verdict" data-verdict="pending" className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200">
        <p className="flex items-center gap-2 text-2xl font-black text-amber-800">
          <Clock className="h-7 w-7" aria-hidden="true" /> Pending
        </p>
        <p className="mt-1 text-sm text-amber-900">
          The game is still in play: the seed is revealed when the game ends. Everything that can be checked now passed.
        </p>
      </div>
    );
  const failures = report.checks.filter((c) => !c.ok);
  return (
    <div
      role="alert"
      data-testid="verdict"
      data-verdict="failed"
      className="rounded-xl bg-rose-50 p-4 ring-1 ring-rose-200"
    >
      <p className="flex items-center gap-2 text-2xl font-black text-rose-800">
        <XCircle className="h-7 w-7" aria-hidden="true" /> Not verified
      </p>
      <ul className="mt-2 space-y-1 text-sm text-rose-900">
        {failures.map((check) => (
          <li key={check.name}>
            <span className="font-semibold">{check.name} failed:</span> {check.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Checks({ report }: { report: ProofReport }) {
  return (
    <ul className="mt-4 grid gap-1.5 text-sm sm:grid-cols-2" aria-label="Checks">
      {report.checks.map((check) => (
        <li key={check.name} data-testid="verify-check" data-ok={check.ok} className="flex min-w-0 items-start gap-2">
          {check.ok ? (
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" aria-label="passed" />
          ) : (
            <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-rose-600" aria-label="failed" />
          )}
          <span className="min-w-0 break-words">
            <span className="font-semibold">{check.name}</span> <span className="text-slate-500">{check.detail}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A participant types their name and phone as they gave them: the page hashes them here and looks for the entry. */
function FindMyEntry({ proof }: { proof: GameProof }) {
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [result, setResult] = useState<{ number: number | null } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !phone.trim()) {
      setError('Type your name and your phone number as you gave them to the shop.');
      return;
    }
    setError(null);
    setPending(true);
    try {
      setResult({ number: (await findOwnEntries(proof, { name, phoneNumber: phone }))[0] ?? null });
    } catch (failure) {
      setError(`This browser could not check it (${String(failure)}).`);
    } finally {
      setPending(false);
    }
  };

  const draw = result?.number != null ? proof.draws.find((d) => d.number === result.number) : undefined;
  return (
    <Section title="Find my entry">
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      >
        <TextField label="Your name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          label="Your phone number"
          type="tel"
          autoComplete="tel"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
        />
        <Button type="submit" disabled={pending} className="sm:mb-px">
          {pending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Search className="h-4 w-4" aria-hidden="true" />
          )}
          Find
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-500">Checked in this browser: what you type is not sent anywhere.</p>
      {error && (
        <p role="alert" className="mt-3 text-sm text-rose-600">
          {error}
        </p>
      )}
      {result && (
        <p
          role="status"
          data-testid="own-entry"
          className={`mt-3 rounded-lg px-3 py-2 text-sm font-semibold ${
            result.number === null ? 'bg-slate-100 text-slate-700' : 'bg-emerald-50 text-emerald-800'
          }`}
        >
          {result.number === null
            ? 'No entry matches that name and phone number. Type them exactly as you gave them to the shop.'
            : `Your entry is number ${result.number}${
                draw
                  ? `: it was drawn for position ${draw.position}${draw.winner ? `, prize ${money(draw.prizeAmount)}` : ''}.`
                  : '.'
              }`}
        </p>
      )}
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 text-lg font-bold tabular-nums">
        {value}
      </dd>
    </div>
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
