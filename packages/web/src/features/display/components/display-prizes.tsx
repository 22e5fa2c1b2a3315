import { formatBps, prizeFor } from '@lot/domain/game';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import type { GameDraw, GameProof } from '@lot/domain/schemas/games';
import { claimStatusText } from '../../../lib/claim-status.ts';
import { voidedNotPaidText, winnerText } from '../../../lib/game/draw-protocol.ts';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/** 50.00 → 50, 12.50 → 12.5: a share as a room reads it. */
const percent = (bps: number) => formatBps(bps).replace(/\.?0+$/, '');

/**
 * Each prize position: what it pays for the pool as it stands, and once drawn its number and
 * winner. A game voided after its freeze shows the draws it would have made, none paid.
 */
export function DisplayPrizes({
  proof,
  settled,
  justSettled,
  waitingFor,
  theme,
}: {
  proof: GameProof;
  settled: readonly GameDraw[];
  justSettled: number | null;
  /** The beacon round the next draw waits for. */
  waitingFor: number | null;
  theme: GameTheme;
}) {
  const poolCents = decimalToCents(proof.pool);
  const byPosition = new Map(settled.map((draw) => [draw.position, draw]));
  const unplayed = new Map(proof.unplayedDraws.map((draw) => [draw.position, draw]));
  const next = proof.status === 'open' || proof.status === 'drawing' ? settled.length + 1 : null;
  const notPaid = voidedNotPaidText(proof.voidedBy, proof.voidReason);
  /** What a position not drawn yet says: the next draw (and the round it waits for), or not yet. */
  const notDrawnText = (position: number) =>
    next !== position ? 'Not drawn yet' : waitingFor === null ? 'Next draw' : `Next draw · round ${waitingFor}`;
  return (
    <section className={`rounded-2xl p-4 sm:p-5 ${theme.panel}`}>
      <h2 className="mb-3 text-xl font-bold tracking-wide uppercase sm:text-2xl 2xl:text-3xl">
        Prizes{' '}
        <span className={`font-semibold normal-case ${theme.muted}`}>
          · {settled.length} of {proof.prizes.length} drawn
        </span>
      </h2>
      {proof.prizes.length === 0 ? (
        <p className={`text-xl ${theme.muted}`}>This game has no prizes.</p>
      ) : (
        <ol className="space-y-3">
          {proof.prizes.map((prize, index) => {
            const draw = byPosition.get(prize.position);
            return (
              <PrizeRow
                key={prize.position}
                order={index + 1}
                prize={prize}
                amountCents={prizeFor(poolCents, prize.percentBps)}
                draw={draw}
                wouldHave={draw ? undefined : unplayed.get(prize.position)}
                settling={!!draw && draw.position === justSettled}
                notDrawn={notDrawnText(prize.position)}
                notPaid={notPaid}
                theme={theme}
              />
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** One prize position: its number tile, its name and share, its winner (or why not), its claim and amount. */
function PrizeRow({
  order,
  prize,
  amountCents,
  draw,
  wouldHave,
  settling,
  notDrawn,
  notPaid,
  theme,
}: {
  order: number;
  prize: GameProof['prizes'][number];
  amountCents: number;
  draw: GameDraw | undefined;
  /** The draw a voided game would have made here, never played. */
  wouldHave: GameDraw | undefined;
  /** The draw just left the spotlight. */
  settling: boolean;
  notDrawn: string;
  notPaid: string;
  theme: GameTheme;
}) {
  const winner = draw?.winner ?? null;
  const tile =
    draw === undefined
      ? `${theme.tile.replace(/hover:\S+/g, '')} ${wouldHave ? 'line-through opacity-80' : ''}`
      : winner
        ? theme.tileWinner
        : theme.tileDrawn;
  return (
    <li
      data-testid="display-prize"
      data-position={prize.position}
      className={`flex items-center gap-3 rounded-xl p-1 sm:gap-4 ${settling ? 'display-settle' : ''}`}
    >
      <span
        data-testid={draw ? 'display-draw' : wouldHave ? 'display-unplayed' : undefined}
        data-number={draw?.number ?? wouldHave?.number}
        className={`flex h-14 w-16 shrink-0 items-center justify-center rounded-xl text-3xl font-black tabular-nums 2xl:h-20 2xl:w-24 2xl:text-5xl ${tile}`}
      >
        {draw?.number ?? wouldHave?.number ?? '?'}
      </span>
      <span className="min-w-0 flex-1">
        <span className={`block text-base font-semibold break-words uppercase 2xl:text-2xl ${theme.muted}`}>
          {order}. {prize.name} · {percent(prize.percentBps)}%
        </span>
        {wouldHave ? (
          <span data-testid="display-not-paid" className="block">
            <span className="block text-xl font-bold break-words sm:text-2xl 2xl:text-3xl">
              {winnerText(wouldHave.winner)}
            </span>
            <span className="block text-base font-semibold break-words sm:text-lg 2xl:text-2xl">{notPaid}</span>
          </span>
        ) : (
          <span
            data-testid={draw ? 'display-winner' : undefined}
            className="block text-xl font-bold break-words sm:text-2xl 2xl:text-3xl"
          >
            {draw ? winnerText(winner) : notDrawn}
          </span>
        )}
        {draw?.claim && (
          <span
            data-testid="display-claim"
            className="block text-base font-semibold break-words sm:text-lg 2xl:text-2xl"
          >
            {claimStatusText(draw.claim)}
          </span>
        )}
      </span>
      <span
        className={`shrink-0 text-right text-xl font-black tabular-nums sm:text-2xl 2xl:text-4xl ${
          (draw && !winner) || wouldHave ? `line-through ${theme.muted}` : theme.accent
        }`}
      >
        {formatMoney(amountCents)}
      </span>
    </li>
  );
}
