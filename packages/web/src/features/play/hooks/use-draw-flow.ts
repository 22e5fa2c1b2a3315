import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import type { DrawAnswer, DrawRequest } from '../api/draw.ts';
import { awaitedRound, nextAskDelayMs, type BeaconWait } from '../../../lib/game/beacon-wait.ts';

/** The last answer that was not the draw, for the game it was about. */
type Answer = BeaconWait & { gameId: number; tries: number; delayMs: number };

/** A clock further off than this from the server's is not trusted for the countdown. */
const CLOCK_TOLERANCE_MS = 1_000;

/**
 * When R is due on this device's clock: the server's `expectedAt`, unless this clock is off by
 * more than a second (then the server's own "how long", `retryAfterMs`, counted from now).
 */
function dueAtOf(waiting: DrawWaiting): number {
  const expected = Date.parse(waiting.expectedAt);
  if (waiting.beaconUnreachable) return expected;
  const byServer = Date.now() + waiting.retryAfterMs;
  return Math.abs(byServer - expected) > CLOCK_TOLERANCE_MS ? byServer : expected;
}

const fromWaiting = (gameId: number, waiting: DrawWaiting, tries: number): Answer => ({
  gameId,
  tries,
  round: waiting.waitingForRound,
  dueAt: dueAtOf(waiting),
  unreachable: waiting.beaconUnreachable,
  error: null,
  delayMs: nextAskDelayMs(waiting.retryAfterMs, tries),
});

/**
 * The draw of a LOT-DRAW-2 game after its freeze (docs/lot-draw-2.md): the server answers 202 until
 * the beacon round R exists, so the same position is asked again, when R is due and then backing
 * off up to 10 s while it is late or the server does not answer, until the draw comes. The game
 * itself says it waits (`drawing`, R named, no signature yet), so a reload or another device
 * carries on waiting, asking from R's due time on.
 *
 * `noteWaiting` takes a 202 the screen got itself (the Check Winner press that froze the game);
 * `onDrawn` gets the draw once it comes; `onGone` a refusal that says the game changed elsewhere
 * (a 409: drawn or voided by someone else), for the screen to load it again. `busy`: another draw
 * request is in flight, so none is asked.
 */
export function useDrawFlow({
  game,
  busy,
  draw,
  onDrawn,
  onGone,
}: {
  game: Game | null;
  busy: boolean;
  draw: (request: DrawRequest) => Promise<DrawAnswer>;
  onDrawn: (result: DrawResult) => void;
  onGone: (error: ApiError) => void;
}): { wait: BeaconWait | null; noteWaiting: (gameId: number, waiting: DrawWaiting) => void } {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const asking = useRef(false);

  const awaited = game ? awaitedRound(game) : null;
  // The last answer counts while it is about the game on screen and that game still waits.
  const last = answer && game && awaited && answer.gameId === game.id ? answer : null;
  const wait: BeaconWait | null = last ?? awaited;
  const gameId = game?.id ?? null;
  const position = game ? game.draws.length + 1 : null;

  const ask = useEffectEvent(async (id: number, at: number) => {
    if (asking.current) return;
    asking.current = true;
    const tries = (last?.tries ?? 0) + 1;
    try {
      const got = await draw({ gameId: id, position: at });
      if (got.kind === 'drawn') {
        setAnswer(null);
        onDrawn(got.result);
      } else {
        setAnswer(fromWaiting(id, got.waiting, tries));
      }
    } catch (error) {
      // Said on the waiting panel and asked again, backing off; a game changed elsewhere is loaded again.
      const base = last ?? awaited;
      if (base) {
        setAnswer({
          ...base,
          gameId: id,
          tries,
          error: errorMessage(error, 'The server did not answer'),
          delayMs: nextAskDelayMs(0, tries),
        });
      }
      if (error instanceof ApiError && [403, 404, 409].includes(error.status)) onGone(error);
    } finally {
      asking.current = false;
    }
  });

  const tries = wait && last ? last.tries : 0;
  const delayMs = last?.delayMs ?? null;
  const dueAt = wait?.dueAt ?? null;
  const waiting = wait !== null;
  useEffect(() => {
    if (!waiting || busy || gameId === null || position === null || dueAt === null) return;
    // After an answer: when it said. Before any (a reload, another device): when R is due.
    const delay = delayMs ?? Math.max(0, Number.isFinite(dueAt) ? dueAt - Date.now() : 0);
    const timer = setTimeout(() => void ask(gameId, position), delay);
    return () => clearTimeout(timer);
  }, [waiting, busy, gameId, position, tries, delayMs, dueAt]);

  const noteWaiting = useCallback((id: number, waiting: DrawWaiting) => setAnswer(fromWaiting(id, waiting, 1)), []);
  return { wait, noteWaiting };
}
