import { CheckCircle2, MinusCircle, XCircle } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import type { GameLogReport, LogPins, ProofReport } from '@lot/domain/verify';

type LogCheck = GameLogReport['inLog'];

/** Witnessed: green; not witnessed (the operator trusted): amber; too few witnesses in time: red. */
const SENTENCE_TONE: Record<LogCheck['status'], string> = {
  pass: 'bg-emerald-50 text-emerald-900',
  na: 'bg-amber-50 text-amber-900',
  fail: 'bg-rose-50 text-rose-900',
};

/** The name part of a vkey (`<name>+<key ID>+<key>`), as the page names a pinned key. */
const keyName = (vkey: string) => vkey.split('+')[0] ?? vkey;

/**
 * The game's freeze in the public game log (docs/lot-draw-2.md#checking-the-game-log): one plain
 * sentence saying who witnessed it and what that proves (or that it was not witnessed), the checks
 * "In the game log" and "Freeze witnessed before round R" made in this browser against the keys the
 * address pins (`?log=`, `?witness=`), and the log's evidence itself.
 */
export function GameLogBlock({
  proof,
  report,
  pins,
}: {
  proof: GameProof;
  report: ProofReport | undefined;
  pins: LogPins;
}) {
  if (proof.status === 'open' || (!proof.log && proof.frozenAt === null)) return null;
  const log = report?.log;
  const sentence = log ? log.sentence || null : null;
  return (
    <section
      data-testid="verify-game-log"
      aria-labelledby="verify-game-log-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="verify-game-log-title" className="mb-3 text-base font-semibold">
        Game log and witnesses
      </h2>
      {sentence && (
        <p
          data-testid="verify-witness-sentence"
          data-status={log?.witnessed.status}
          className={`mb-4 rounded-xl p-3 text-sm ${SENTENCE_TONE[log?.witnessed.status ?? 'na']}`}
        >
          {sentence}
        </p>
      )}
      {log ? (
        <ul className="space-y-3 text-sm">
          <CheckRow check={log.inLog} testId="verify-check-in-log" />
          <CheckRow check={log.witnessed} testId="verify-check-witnessed" />
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Checking…</p>
      )}
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs font-medium text-slate-500 uppercase">Log key pinned by this address</dt>
          <dd className="mt-0.5 break-words">
            {pins.log ? (
              <span className="font-mono text-xs">{keyName(pins.log)}</span>
            ) : (
              <span className="text-slate-500">
                None: add <span className="font-mono">?log=</span> with the log&apos;s key, as your shop or its auditor
                publishes it
              </span>
            )}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-slate-500 uppercase">Witnesses pinned</dt>
          <dd className="mt-0.5 break-words">
            {pins.witnesses.length > 0 ? (
              <span className="font-mono text-xs">{pins.witnesses.map(keyName).join(', ')}</span>
            ) : (
              <span className="text-slate-500">
                None: add <span className="font-mono">?witness=</span> with each witness&apos;s key
              </span>
            )}
          </dd>
        </div>
        {proof.log && (
          <div className="min-w-0 sm:col-span-2">
            <dt className="text-xs font-medium text-slate-500 uppercase">
              Leaf {proof.log.freeze.index} of {proof.log.origin}
            </dt>
            <dd className="mt-1">
              <details>
                <summary className="cursor-pointer text-xs text-indigo-700">The leaf and the checkpoint</summary>
                <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-3 font-mono text-xs whitespace-pre">
                  {proof.log.freeze.data}
                  {'\n'}
                  {proof.log.freeze.checkpoint}
                </pre>
              </details>
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

function CheckRow({ check, testId }: { check: LogCheck; testId: string }) {
  const [Icon, tone, label] =
    check.status === 'pass'
      ? [CheckCircle2, 'text-emerald-700', 'Passed']
      : check.status === 'fail'
        ? [XCircle, 'text-rose-700', 'Failed']
        : [MinusCircle, 'text-slate-500', 'Not checked'];
  return (
    <li data-testid={testId} data-status={check.status} className="flex items-start gap-2">
      <Icon className={`mt-0.5 h-4 w-4 shrink-0 ${tone}`} aria-hidden="true" />
      <span className="min-w-0 break-words">
        <span className="font-semibold">{check.name}</span>{' '}
        <span className={tone}>
          {label}: {check.detail}
        </span>
      </span>
    </li>
  );
}
