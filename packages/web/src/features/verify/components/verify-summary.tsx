import type { ReactNode } from 'react';
import { gameTitle } from '@lot/domain/game';
import type { GameProof } from '@lot/domain/schemas/games';
import { DISCARDED_TEXT } from '@lot/domain/verify';
import { prizesPaidSoFar } from '../../../lib/claim-status.ts';
import { dateTime, money } from '../../../lib/format.ts';
import type { VerifyPins } from '../../../lib/game/verify-pins.ts';
import { ProtocolStatement } from './verify-protocol.tsx';

const STATUS_LABEL: Record<GameProof['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

export const ROLE_WORDS: Record<string, string> = {
  admin: 'admin',
  superagent: 'super agent',
  agent: 'agent',
  user: 'shop',
};

/** 'Not paid — game voided by agent J*** D***: reason', the words on every prize of a voided game. */
export function notPaidText(proof: GameProof): string {
  const by = proof.voidedBy
    ? ` by ${ROLE_WORDS[proof.voidedBy.role] ?? proof.voidedBy.role} ${proof.voidedBy.name}`
    : '';
  return `Not paid — game voided${by}: ${proof.voidReason ?? 'no reason given'}`;
}

/** A discarded game: who ran it and when, and that nothing was drawn — nothing to check (docs/product/game.md#discarded-proof). */
export function DiscardedView({ proof }: { proof: GameProof }) {
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

/**
 * The game at a glance: its heading, the verdict, what its protocol proves, why it was stopped
 * (a voided or discarded game) and its figures.
 */
export function ProofSummary({ proof, pins, verdict }: { proof: GameProof; pins: VerifyPins; verdict: ReactNode }) {
  const voided = proof.status === 'voided';
  const paid = proof.status === 'settled' ? prizesPaidSoFar(proof.draws) : null;
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <ProofHeading proof={proof} />
      <div className="mt-5 space-y-4">
        {verdict}
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
              {proof.voidedBy && ` by ${ROLE_WORDS[proof.voidedBy.role] ?? proof.voidedBy.role} ${proof.voidedBy.name}`}
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
        <Fact
          label="Prizes won"
          value={proof.totalPrize === null ? '—' : money(proof.totalPrize)}
          note={paid === null ? undefined : `${money(paid)} paid so far`}
          testId="verify-prizes-won"
        />
        <Fact label="Commission" value={proof.commission === null ? '—' : money(proof.commission)} />
      </dl>
    </section>
  );
}

function Fact({ label, value, note, testId }: { label: string; value: string; note?: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd data-testid={testId} className="mt-0.5 text-lg font-bold tabular-nums">
        {value}
      </dd>
      {note && <dd className="text-xs text-slate-500 tabular-nums">{note}</dd>}
    </div>
  );
}
