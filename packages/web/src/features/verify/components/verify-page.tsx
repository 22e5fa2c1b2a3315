import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, Loader2, SearchX, ShieldAlert, ShieldCheck, XCircle } from 'lucide-react';
import { formatBps, gameTitle } from '@lot/domain/game';
import type { GameDraw, GameProof } from '@lot/domain/schemas/games';
import { DISCARDED_TEXT, isCleanlyDiscarded, type ProofReport } from '@lot/domain/verify';
import { ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { CLAIM_STATUS_TONE, claimStatusText } from '../../../lib/claim-status.ts';
import { dateTime, money } from '../../../lib/format.ts';
import { gameProofQuery, isNotFound } from '../api/get-game-proof.ts';
import { usePins } from '../../../lib/game/use-pins.ts';
import { useProofCheck } from '../../../lib/game/use-proof-check.ts';
import { winnerText } from '../../../lib/game/draw-protocol.ts';
import { FindMyEntry } from './verify-find-entry.tsx';
import type { VerifyPins } from '../../../lib/game/verify-pins.ts';
import { useNow } from '../hooks/use-now.ts';
import { BeaconBlock } from './verify-beacon.tsx';
import { ProtocolStatement } from './verify-protocol.tsx';
import { waitingRound, waitingText } from './verify-waiting.ts';

/** Asked again while a game is in play or waits for round R: each draw (and R) shows without a reload. */
const LIVE_REFRESH_MS = 3000;

const STATUS_LABEL: Record<GameProof['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

/**
 * The public proof of one game (/verify/{code}, no sign-in): the page fetches what the server
 * published, re-checks it in this browser (LOT-DRAW-2 or LOT-DRAW-1, verifyProof) against the beacon
 * chains it pins (drand quicknet, or one `?chain=&publicKey=` pins) and says plainly whether it
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

const ROLE_WORDS: Record<string, string> = { admin: 'admin', superagent: 'super agent', agent: 'agent', user: 'shop' };

/** 'Not paid — game voided by agent J*** D***: reason', the words on every prize of a voided game. */
function notPaidText(proof: GameProof): string {
  const by = proof.voidedBy
    ? ` by ${ROLE_WORDS[proof.voidedBy.role] ?? proof.voidedBy.role} ${proof.voidedBy.name}`
    : '';
  return `Not paid — game voided${by}: ${proof.voidReason ?? 'no reason given'}`;
}

/** A discarded game: who ran it and when, and that nothing was drawn — nothing to check (docs/product/game.md#discarded-proof). */
function DiscardedView({ proof }: { proof: GameProof }) {
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <ProofHeading proof={proof} />
      <p
        data-testid="verdict"
        data-verdict="discarded"
        className="mt-5 rounded-xl bg-slate-100 p-4 text-2xl font-black text-slate-700"
      >
        {DISCARDED_TEXT}
      </p>
    </section>
  );
}

/** The shop, the game's code, when it opened and ended, and its status. */
function ProofHeading({ proof }: { proof: GameProof }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-500">
          {proof.shopName} · <span data-testid="verify-game-number">{gameTitle(proof.number)}</span>
        </p>
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
  );
}

function ProofView({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  return isCleanlyDiscarded(proof) ? <DiscardedView proof={proof} /> : <CheckedProofView proof={proof} pins={pins} />;
}

function CheckedProofView({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  const check = useProofCheck(proof, pins.pins);
  const report = check.data?.report;
  const waiting = waitingRound(proof);
  const now = useNow(waiting !== null);
  const drawnNumbers = new Set(proof.draws.map((d) => d.number));
  const voided = proof.status === 'voided';
  const notPaid = voided ? notPaidText(proof) : null;
  return (
    <>
      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <ProofHeading proof={proof} />
        <div className="mt-5 space-y-4">
          <Verdict
            report={report}
            ms={check.data?.ms}
            failed={check.isError ? String(check.error) : null}
            beacon={proof.algorithm === 'LOT-DRAW-2'}
            status={proof.status}
            waiting={waiting ? waitingText(proof, waiting.round, waiting.expectedAt, now) : null}
          />
          <ProtocolStatement proof={proof} pins={pins} />
        </div>
        {proof.voidReason && (
          <div
            data-testid="verify-void"
            className="mt-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200"
          >
            <p>
              <span className="font-semibold">
                {voided ? 'Voided' : 'Discarded'}
                {proof.voidedBy &&
                  ` by ${ROLE_WORDS[proof.voidedBy.role] ?? proof.voidedBy.role} ${proof.voidedBy.name}`}
                :
              </span>{' '}
              {proof.voidReason}
            </p>
            {voided && proof.frozenAt && (
              <p className="mt-1 text-slate-600">
                The draw had started, so the outcome was already fixed: below are the draws made and the ones the game
                would have made. No prize was paid; the pool of {money(proof.pool)} went back to the shop.
              </p>
            )}
          </div>
        )}
        <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3 lg:grid-cols-6">
          <Fact label="Range" value={`${proof.startRange}–${proof.endRange}`} />
          <Fact label="Bet" value={money(proof.betAmount)} />
          <Fact label="Entries" value={String(proof.entries.length)} />
          <Fact label={voided ? 'Pool (returned)' : 'Pool'} value={money(proof.pool)} testId="verify-pool" />
          <Fact label="Prizes paid" value={proof.totalPrize === null ? '—' : money(proof.totalPrize)} />
          <Fact label="Commission" value={proof.commission === null ? '—' : money(proof.commission)} />
        </dl>
      </section>

      <BeaconBlock proof={proof} report={report} pins={pins} now={now} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Draws">
          {proof.draws.length === 0 ? (
            <p className="text-sm text-slate-500">
              {waiting && proof.status === 'drawing'
                ? `Nothing has been drawn yet: the draws wait for round ${waiting.round}.`
                : proof.status === 'voided' || proof.status === 'discarded'
                  ? 'Nothing was drawn before the game was stopped.'
                  : 'Nothing has been drawn yet.'}
            </p>
          ) : (
            <DrawList proof={proof} draws={proof.draws} testId="verify-draw" notPaid={notPaid} />
          )}
          {voided && proof.frozenAt && (
            <div className="mt-4 border-t border-slate-200 pt-4">
              <h3 className="text-sm font-semibold text-slate-700">Unplayed draws</h3>
              <p className="mt-0.5 text-xs text-slate-500">
                The draws the game would have made had it been finished: fixed at the freeze, never played.
              </p>
              {proof.unplayedDraws.length === 0 ? (
                <p className="mt-2 text-sm text-slate-500">
                  {proof.draws.length === proof.prizes.length
                    ? 'None: every position was drawn before the void.'
                    : proof.beacon && proof.beacon.signature === null
                      ? `They appear once round ${proof.beacon.round ?? 'R'} is published.`
                      : 'None.'}
                </p>
              ) : (
                <DrawList proof={proof} draws={proof.unplayedDraws} testId="verify-unplayed-draw" notPaid={notPaid} />
              )}
            </div>
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
              commitment. Each entry is hashed (number, name and phone) and the game, its prizes and the entry hashes
              are hashed together into the entries digest. Draw k is HMAC-SHA256(seed, digest:k:c): its first 4 bytes
              pick one of the numbers not drawn yet, without bias. When the game ends the seed is revealed, and this
              page recomputes the commitment, the digest, every draw, every prize and the commission in your browser.
              Whoever held the seed before then could compute the draws in advance.
            </p>
          )}
        </details>
      </Section>
    </>
  );
}

/** Draws in order: the number, the position and prize, the masked winner, and the prize or why it was not paid. */
function DrawList({
  proof,
  draws,
  testId,
  notPaid,
}: {
  proof: GameProof;
  draws: readonly GameDraw[];
  testId: string;
  /** A voided game: every prize reads this instead of its amount. */
  notPaid: string | null;
}) {
  return (
    <ol className="divide-y divide-slate-100">
      {draws.map((draw) => {
        const prize = proof.prizes.find((p) => p.position === draw.position);
        return (
          <li key={draw.position} data-testid={testId} className="flex items-center gap-3 py-2.5">
            <span
              className={`flex h-11 w-12 shrink-0 items-center justify-center rounded-lg text-xl font-black ${
                draw.winner && !notPaid ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-700'
              }`}
            >
              {draw.number}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block text-xs font-semibold text-slate-500 uppercase">
                #{draw.position} {prize?.name}
              </span>
              <span className="block truncate font-semibold">{winnerText(draw.winner)}</span>
              {notPaid ? (
                <span data-testid="verify-not-paid" className="block text-xs break-words text-rose-700">
                  {notPaid}
                </span>
              ) : (
                <span className="block text-xs text-slate-500">{dateTime(draw.drawnAt)}</span>
              )}
              {draw.claim && (
                <span
                  data-testid="verify-claim"
                  data-status={draw.claim.status}
                  className={`block text-xs font-semibold ${CLAIM_STATUS_TONE[draw.claim.status]}`}
                >
                  {claimStatusText(draw.claim)}
                </span>
              )}
            </span>
            <span className="shrink-0 font-bold tabular-nums">
              {draw.winner && !notPaid ? money(draw.prizeAmount) : '—'}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** What a verified game's checks established, for its protocol and how it ended. */
function verifiedText(status: GameProof['status'], beacon: boolean): string {
  const seed = 'Every check passed: the seed matches the commitment published when the game opened';
  const round = beacon ? ', the public round is the first after the freeze and signed by a pinned chain' : '';
  const from = beacon ? 'them' : 'it';
  if (status === 'voided')
    return `${seed}${round}, and the draws made and the unplayed ones follow from ${from}. No prize was paid.`;
  return `${seed}${round}, and every draw, prize and the commission follow from ${from}.`;
}

/**
 * The verdict in plain words: Verified, pending (the seed is still secret, or round R is awaited), or
 * the checks that failed. `data-verify-ms` holds how long the check took in this browser.
 */
function Verdict({
  report,
  ms,
  failed,
  waiting,
  beacon,
  status,
}: {
  report: ProofReport | undefined;
  ms: number | undefined;
  failed: string | null;
  /** A LOT-DRAW-2 game waiting for its round: what the pending verdict says. */
  waiting: string | null;
  /** LOT-DRAW-2: the verified verdict names the beacon too. */
  beacon: boolean;
  status: GameProof['status'];
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
