import type { ReactNode } from 'react';
import { CheckCircle2, XCircle } from 'lucide-react';
import { roundTimeMs } from '@lot/domain/beacon';
import { DEFAULT_PINS, type ProofReport } from '@lot/domain/verify';
import type { GameProof } from '@lot/domain/schemas/games';
import { pins as pinsBeacon, shortHex, type VerifyPins } from '../../../lib/game/verify-pins.ts';
import { clock, span, waitingRound } from './verify-waiting.ts';

/**
 * The public randomness of a LOT-DRAW-2 game: the chain, round R and L, the latest round public at
 * the freeze (decision 076), when the entries froze and when R was (or will be) published, and the
 * check of R's signature made in this browser.
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
            <span className="text-slate-500">Named when the entries are frozen (a round not yet published then)</span>
          ) : (
            <span className="font-semibold tabular-nums">{round}</span>
          )}
        </Item>
        {round !== null && (
          <Item label="Latest round at the freeze" testId="verify-latest">
            {beacon.latestRound == null ? (
              <span className="text-slate-500">
                Not recorded (frozen before it was): R is the first round after the freeze
              </span>
            ) : (
              <>
                <span className="font-semibold tabular-nums">{beacon.latestRound}</span>
                <span className="block text-xs text-slate-500">Round {round} comes after it</span>
              </>
            )}
          </Item>
        )}
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
