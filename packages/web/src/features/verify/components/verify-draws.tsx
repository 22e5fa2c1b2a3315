import { formatBps } from '@lot/domain/game';
import type { GameBeacon, GameDraw, GameProof } from '@lot/domain/schemas/games';
import { CLAIM_STATUS_TONE, claimStatusText } from '../../../lib/claim-status.ts';
import { dateTime, money } from '../../../lib/format.ts';
import { winnerText } from '../../../lib/game/draw-protocol.ts';
import { Section } from './verify-section.tsx';

/**
 * The draws made (and, for a game voided after its freeze, the ones it would have made) beside the
 * prizes, in two columns on a wide screen.
 */
export function DrawsAndPrizes({
  proof,
  waiting,
  notPaid,
}: {
  proof: GameProof;
  /** The round a LOT-DRAW-2 game waits for (waitingRound), or null. */
  waiting: (GameBeacon & { round: number }) | null;
  /** A voided game: every prize reads this instead of its amount. */
  notPaid: string | null;
}) {
  const voided = proof.status === 'voided';
  return (
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
