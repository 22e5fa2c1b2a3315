import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CheckCircle2, Clock, Loader2, ShieldCheck } from 'lucide-react';
import { gameTitle } from '@lot/domain/game';
import type { Game, GameSummary } from '@lot/domain/schemas/games';
import { SERVER_RANDOMNESS_ONLY } from '@lot/domain/draw';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { drawNext } from '../api/finish-game.ts';

type Waiting = { round: number; until: number; unreachable: boolean };

type Phase = 'confirm' | 'running' | 'done' | 'failed';

/** The shortest pause before asking again, whatever the server's Retry-After says. */
const MIN_RETRY_MS = 250;

/** Seconds left until `until`, for the countdown ('in 3 s'). */
function useSecondsLeft(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 250);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * The upline finishes a shop's frozen game: every remaining position is drawn by the server, one
 * call each, in order. A LOT-DRAW-2 game answers 202 until its round R is published: the dialog
 * counts down to when the server said to ask again and asks again by itself. The draws show as they
 * come; closing the dialog stops asking (the game stays frozen, its draws so far kept). A failure
 * is shown with Try Again, which carries on from the next position.
 */
export function FinishGameDialog({
  game,
  onClose,
  onChanged,
}: {
  /** The frozen game (null: closed). */
  game: GameSummary | null;
  onClose: () => void;
  /** A draw was made: the lists and totals it changes are loaded again. */
  onChanged: () => void;
}) {
  const [phase, setPhase] = useState<Phase>('confirm');
  const [current, setCurrent] = useState<Game | null>(null);
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = useRef(0);
  const secondsLeft = useSecondsLeft(waiting?.until ?? null);

  // Closing (or leaving the screen) ends the loop: the next step sees its run is over.
  useEffect(() => () => void (run.current += 1), []);

  if (!game) return null;

  const close = () => {
    run.current += 1;
    setPhase('confirm');
    setCurrent(null);
    setWaiting(null);
    setFailure(null);
    onClose();
  };

  const finish = async () => {
    const mine = ++run.current;
    const alive = () => run.current === mine;
    setPhase('running');
    setFailure(null);
    let position = (current?.draws.length ?? game.drawsCount) + 1;
    const total = game.prizesCount;
    try {
      while (position <= total) {
        const outcome = await drawNext(game.id, position);
        if (!alive()) return;
        if (outcome.kind === 'waiting') {
          const { waitingForRound, retryAfterMs, beaconUnreachable } = outcome.waiting;
          const pause = Math.max(MIN_RETRY_MS, retryAfterMs);
          setCurrent(outcome.waiting.game);
          setWaiting({ round: waitingForRound, until: Date.now() + pause, unreachable: beaconUnreachable });
          await new Promise((resolve) => setTimeout(resolve, pause));
          if (!alive()) return;
          continue;
        }
        setWaiting(null);
        setCurrent(outcome.result.game);
        onChanged();
        if (outcome.result.game.status !== 'drawing') break;
        position = outcome.result.game.draws.length + 1;
      }
      setPhase('done');
    } catch (error) {
      if (!alive()) return;
      setWaiting(null);
      setFailure(errorMessage(error, 'The draw could not be made. Try again.'));
      setPhase('failed');
    }
  };

  const draws = current?.draws ?? [];
  const remaining = game.prizesCount - game.drawsCount;
  const settled = current?.status === 'settled';
  return (
    <Modal open title="Finish game" size="md" onClose={close}>
      <div className="space-y-4 text-slate-700">
        {phase === 'done' ? (
          <p>
            <strong>{game.user.fullName}</strong>’s {gameTitle(game.number)} (
            <span className="font-mono text-sm break-all">{game.code}</span>) was drawn to the end by the server:
          </p>
        ) : (
          <p>
            Draw the {remaining === 1 ? 'last remaining position' : `${remaining} remaining positions`} of{' '}
            <strong>{game.user.fullName}</strong>’s {gameTitle(game.number)} (
            <span className="font-mono text-sm break-all">{game.code}</span>). The server draws them from the frozen
            entries
            {game.protocol === 'LOT-DRAW-2' ? ' and the public randomness round named at the freeze' : ''}: nobody
            chooses a number. Winners are paid from the pool of {money(game.pool)} and the game is settled.
          </p>
        )}
        {game.protocol === 'LOT-DRAW-1' && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
            LOT-DRAW-1 — {SERVER_RANDOMNESS_ONLY}.
          </p>
        )}

        {waiting && (
          <p
            role="status"
            data-testid="finish-waiting"
            className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            <Clock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <span>
              {waiting.unreachable
                ? `Round ${waiting.round} of the public randomness is due, but no beacon relay has answered yet.`
                : `Waiting for public randomness (round ${waiting.round})…`}{' '}
              {secondsLeft > 0 ? `Asking again in ${secondsLeft} s.` : 'Asking again…'}
            </span>
          </p>
        )}

        {draws.length > 0 && (
          <ol aria-label="Draws" className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
            {draws.map((draw) => (
              <li key={draw.position} data-testid="finish-draw" className="flex items-center gap-3 px-3 py-2 text-sm">
                <span className="flex h-9 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 font-black text-slate-800">
                  {draw.number}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-xs font-semibold text-slate-500 uppercase">
                    #{draw.position} {current?.prizes.find((p) => p.position === draw.position)?.name}
                  </span>
                  <span className="block truncate font-medium">{draw.winner ? draw.winner.name : 'No winner'}</span>
                </span>
                <span className="shrink-0 font-semibold tabular-nums">
                  {draw.winner ? money(draw.prizeAmount) : '—'}
                </span>
              </li>
            ))}
          </ol>
        )}

        {phase === 'done' && current && (
          <p
            role="status"
            data-testid="finish-done"
            className="flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200"
          >
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {settled
              ? `Settled: ${money(current.totalPrize ?? '0')} paid in prizes, ${money(current.commission ?? '0')} commission.`
              : `The game is ${current.status} now: nothing more to draw.`}
          </p>
        )}
        <FormError message={failure} />

        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:items-center sm:justify-end">
          {phase === 'done' ? (
            <>
              <Link
                to={`/verify/${game.code}`}
                className="inline-flex items-center justify-center gap-1.5 rounded-lg px-4 py-2 text-sm font-semibold text-indigo-600 ring-1 ring-indigo-200 hover:bg-indigo-50"
              >
                <ShieldCheck className="h-4 w-4" aria-hidden="true" /> Verify the game
              </Link>
              <Button onClick={close}>Close</Button>
            </>
          ) : (
            <>
              <Button variant="secondary" onClick={close}>
                {phase === 'running' ? 'Stop' : 'Cancel'}
              </Button>
              <Button onClick={() => void finish()} disabled={phase === 'running'}>
                {phase === 'running' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
                {phase === 'running' ? 'Drawing…' : phase === 'failed' ? 'Try Again' : 'Finish game'}
              </Button>
            </>
          )}
        </div>
      </div>
    </Modal>
  );
}
