import { useEffect, useState, type ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Globe2, Link2, XCircle } from 'lucide-react';
import { roundTimeMs } from '@lot/domain/beacon';
import { DEFAULT_PINS, type ProofReport } from '@lot/domain/verify';
import type { GameBeacon, GameProof } from '@lot/domain/schemas/games';
import { pins as pinsBeacon, shortHex, type VerifyPins } from '../../../lib/game/verify-pins.ts';

/** The label every LOT-DRAW-1 game carries, wherever it is shown (decision 033). */
import { SERVER_RANDOMNESS_ONLY } from '@lot/domain/draw';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A moment to the second (beacon rounds are seconds apart): 'Nov 22, 4:05:12 PM', in the viewer's zone. */
export function clock(at: number | string): string {
  const date = new Date(at);
  const hours = date.getHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hours % 12 || 12}:${pad(date.getMinutes())}:${pad(
    date.getSeconds(),
  )} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A span of time in words: '3 s', '2 min 5 s'. */
export function span(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The time now, moving every second while `running` (a countdown), still otherwise. */
export function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [running]);
  return now;
}

/**
 * A LOT-DRAW-2 game whose round R is named but not in the proof yet: frozen and waiting for it, or
 * voided before the server fetched it (its unplayed draws show once it has).
 */
export function waitingRound(proof: GameProof): (GameBeacon & { round: number }) | null {
  const beacon = proof.beacon;
  if (proof.status !== 'drawing' && proof.status !== 'voided') return null;
  if (!beacon || beacon.round === null || beacon.signature !== null) return null;
  return { ...beacon, round: beacon.round };
}

/**
 * 'Waiting for public randomness (round R)…' and when it comes: 'expected at 4:05:12 PM (in 3 s)',
 * or, once its time has passed (the server fetches it at the next draw, or as the proof of a voided
 * game is read), when it was due.
 */
export function waitingText(proof: GameProof, round: number, expectedAt: string | null, now: number): string {
  const head = `Waiting for public randomness (round ${round})…`;
  const at = expectedAt === null ? NaN : Date.parse(expectedAt);
  const voided = proof.status === 'voided';
  if (Number.isNaN(at)) return head;
  if (at > now) {
    const soon = at - now < 1000 ? 'any moment now' : `in ${span(at - now)}`;
    return `${head} Expected at ${clock(at)} (${soon}): ${
      voided ? 'then the draws the voided game would have made are shown.' : 'nothing can be drawn before it exists.'
    }`;
  }
  return `${head} It was due at ${clock(at)} (${span(now - at)} ago): ${
    voided
      ? 'the draws the voided game would have made are shown as soon as the server has fetched it.'
      : 'the numbers are drawn as soon as the shop or its agent draws again.'
  }`;
}

/**
 * What the game's protocol proves, in one sentence: LOT-DRAW-2's public randomness, or LOT-DRAW-1
 * labelled as server randomness only. For LOT-DRAW-2, which chain this page checked it against.
 */
export function ProtocolStatement({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  if (proof.algorithm !== 'LOT-DRAW-2') {
    return (
      <div
        data-testid="verify-protocol"
        data-protocol={proof.algorithm}
        className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300"
      >
        <p className="flex items-start gap-2 font-semibold text-amber-900">
          <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <span data-testid="verify-protocol-label">{SERVER_RANDOMNESS_ONLY}</span>
        </p>
        <p className="mt-1 text-sm text-amber-900">
          {proof.algorithm}: the numbers follow from a seed the server chose when the game opened. Its SHA-256 was
          published then, so the seed could not be changed afterwards; but it was secret, and whoever held it could
          compute every draw before it was made.
        </p>
      </div>
    );
  }
  const round = proof.beacon?.round ?? null;
  return (
    <div
      data-testid="verify-protocol"
      data-protocol={proof.algorithm}
      className="rounded-xl bg-indigo-50 p-4 ring-1 ring-indigo-200"
    >
      <p className="flex items-start gap-2 text-sm text-indigo-950 sm:text-base">
        <Globe2 className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" aria-hidden="true" />
        <span data-testid="verify-protocol-label">
          <span className="font-semibold">LOT-DRAW-2:</span>{' '}
          {round === null
            ? 'the numbers will depend on public randomness (a drand round) published after the entries are frozen, so nobody — not even the shop or LOT — can know or steer them in advance.'
            : `the numbers depend on public randomness (drand round ${round}) published after the entries were frozen, so nobody — not even the shop or LOT — could know or steer them in advance.`}
        </span>
      </p>
      <PinNote proof={proof} pins={pins} />
    </div>
  );
}

/** Which chain the proof was checked against: the default pin, or one this page's link pins (said plainly). */
function PinNote({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  const chain = proof.beacon?.chainHash;
  const linked = pinsBeacon(pins.linked, proof.beacon);
  const quicknet = DEFAULT_PINS.some((pin) => pinsBeacon(pin, proof.beacon));
  return (
    <div className="mt-2 space-y-1 pl-7 text-xs text-indigo-900 sm:text-sm">
      {linked ? (
        <p data-testid="verify-pin" className="flex items-start gap-1.5">
          <Link2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Checked against chain <span className="font-mono">{shortHex(chain ?? '')}</span> pinned by this link, not
            drand quicknet: trust this check as far as you trust whoever gave you the link.
          </span>
        </p>
      ) : quicknet ? (
        <p data-testid="verify-pin">Checked against drand quicknet, the public chain this page trusts.</p>
      ) : (
        <p data-testid="verify-pin">
          Chain <span className="font-mono">{shortHex(chain ?? '')}</span> is not a chain this page trusts, so its
          randomness cannot be relied on (see the Beacon chain check).
        </p>
      )}
      {pins.refused && <p data-testid="verify-pin-refused">{pins.refused}</p>}
    </div>
  );
}

/**
 * The public randomness of a LOT-DRAW-2 game: the chain, round R, when the entries froze and when R
 * was (or will be) published, and the check of R's signature made in this browser.
 */
export function BeaconBlock({
  proof,
  report,
  pins,
  now,
}: {
  proof: GameProof;
  report: ProofReport | undefined;
  pins: VerifyPins;
  now: number;
}) {
  const beacon = proof.beacon;
  if (proof.algorithm !== 'LOT-DRAW-2' || !beacon) return null;
  const round = beacon.round;
  const publishedAt = round === null ? null : roundTimeMs(beacon, round);
  const frozenAt = proof.frozenAt === null ? null : Date.parse(proof.frozenAt);
  const signature = report?.checks.find((check) => check.name === 'Beacon signature');
  const linked = pinsBeacon(pins.linked, beacon);
  const known = DEFAULT_PINS.find((pin) => pinsBeacon(pin, beacon));
  const pinned = Boolean(known) || linked;
  const chainName = known?.name ?? (linked ? 'Pinned by this link' : 'Not pinned');
  const waiting = waitingRound(proof);
  return (
    <section
      data-testid="verify-beacon"
      aria-labelledby="verify-beacon-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="verify-beacon-title" className="mb-3 text-base font-semibold">
        Public randomness
      </h2>
      <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Chain">
          <span className="font-semibold">{chainName}</span>{' '}
          <span className="font-mono text-xs break-all text-slate-500">{shortHex(beacon.chainHash)}</span>
        </Item>
        <Item label="Round R" testId="verify-round">
          {round === null ? (
            <span className="text-slate-500">Named when the entries are frozen (the first round after the freeze)</span>
          ) : (
            <span className="font-semibold tabular-nums">{round}</span>
          )}
        </Item>
        <Item label="Entries frozen">
          {frozenAt === null ? <span className="text-slate-500">Not yet</span> : clock(frozenAt)}
        </Item>
        <Item
          label={round === null ? 'Round R published' : `Round ${round} ${beacon.signature ? 'published' : 'due'}`}
          testId="verify-published"
        >
          {publishedAt === null ? (
            <span className="text-slate-500">After the freeze</span>
          ) : (
            <>
              {clock(publishedAt)}
              {frozenAt !== null && (
                <span className="block text-xs text-slate-500">
                  {publishedAt - frozenAt < 10_000
                    ? `${((publishedAt - frozenAt) / 1000).toFixed(1)} s`
                    : span(publishedAt - frozenAt)}{' '}
                  after the freeze
                  {waiting && publishedAt > now
                    ? publishedAt - now < 1000
                      ? ', any moment now'
                      : `, in ${span(publishedAt - now)}`
                    : ''}
                </span>
              )}
            </>
          )}
        </Item>
        <Item label="Signature" testId="verify-signature">
          {!signature ? (
            <span className="text-slate-500">{round === null ? 'Not published yet' : 'Checking…'}</span>
          ) : beacon.signature === null && signature.ok ? (
            <span className="text-slate-500">Not published yet: nothing can be drawn before it</span>
          ) : signature.ok && !pinned ? (
            <span className="flex items-start gap-1.5 text-rose-700">
              <XCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <span className="min-w-0">
                Round {round} is signed with the key the proof names, but that chain is not one this page trusts
              </span>
            </span>
          ) : signature.ok ? (
            <span className="flex items-start gap-1.5 text-emerald-700">
              <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              Verified in this browser: round {round} was signed by the chain
            </span>
          ) : (
            <span className="flex items-start gap-1.5 text-rose-700">
              <XCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <span className="min-w-0 break-words">Failed: {signature.detail}</span>
            </span>
          )}
        </Item>
        <Item label="Randomness (SHA-256 of the signature)">
          {beacon.randomness ? (
            <span className="font-mono text-xs break-all">{beacon.randomness}</span>
          ) : (
            <span className="text-slate-500">Known once round R is published</span>
          )}
        </Item>
      </dl>
    </section>
  );
}

function Item({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd data-testid={testId} className="mt-0.5">
        {children}
      </dd>
    </div>
  );
}
