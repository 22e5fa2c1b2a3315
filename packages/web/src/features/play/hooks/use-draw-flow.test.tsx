import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import { ApiError } from '../../../lib/api-client.ts';
import type { DrawAnswer, DrawRequest } from '../api/draw.ts';
import { BEACON_NOT_ANSWERING, BeaconWaitView } from '../../../components/game/beacon-wait-view.tsx';
import { GAME_THEMES } from '../../../lib/game/game-theme.ts';
import { awaitedRound, nextAskDelayMs, type BeaconWait } from '../../../lib/game/beacon-wait.ts';
import { useDrawFlow } from './use-draw-flow.ts';

const NOW = Date.parse('2026-11-26T10:00:00.000Z');
const ROUND = 4242;

/** A LOT-DRAW-2 game frozen at NOW − 1 s, whose round R is due `dueInMs` from NOW (or drawn). */
function frozenGame(dueInMs: number, drawn = false): Game {
  const due = new Date(NOW + dueInMs).toISOString();
  return {
    id: 7,
    number: 3,
    code: 'G7CODE',
    status: 'drawing',
    userId: 1,
    user: { id: 1, username: 'shop', fullName: 'Shop', shopName: null },
    startRange: 1,
    endRange: 3,
    betAmount: '5.00',
    pool: '15.00',
    prizes: [{ position: 1, name: 'Jackpot', percent: '50.00', percentBps: 5000, prizeAmount: '7.50' }],
    protocol: 'LOT-DRAW-2',
    beacon: {
      chainHash: 'c'.repeat(64),
      publicKey: 'k'.repeat(192),
      genesisTime: 1,
      period: 3,
      round: ROUND,
      latestRound: ROUND - 2,
      expectedAt: due,
      signature: drawn ? 's'.repeat(96) : null,
      randomness: drawn ? 'r'.repeat(64) : null,
    },
    commitment: 'a'.repeat(64),
    entries: [{ number: 2, name: 'Ana Lopez', phoneNumber: '555-0102', nonce: '0123456789abcdef' }],
    frozenAt: new Date(NOW - 1_000).toISOString(),
    draws: drawn
      ? [
          {
            position: 1,
            number: 2,
            drawnAt: due,
            winner: { number: 2, name: 'Ana Lopez', phoneNumber: '555-0102' },
            prizeAmount: '7.50',
          },
        ]
      : [],
    unplayedDraws: [],
    totalPrize: null,
    commission: null,
    saleId: null,
    transactionId: 9,
    openedAt: new Date(NOW - 60_000).toISOString(),
    endedAt: null,
    voidReason: null,
    voidedBy: null,
    serverSeed: null,
  };
}

const waiting = (game: Game, retryAfterMs: number, beaconUnreachable = false): DrawWaiting => ({
  waitingForRound: ROUND,
  expectedAt: game.beacon?.expectedAt ?? '',
  retryAfterMs,
  beaconUnreachable,
  game,
});

const drawn = (game: Game): DrawResult => ({
  position: 1,
  number: 2,
  winner: { number: 2, name: 'Ana Lopez', phoneNumber: '555-0102' },
  prizeAmount: '7.50',
  game,
});

/** The screen around the hook: `answers` are given in turn to each ask; a drawn answer puts its game on screen. */
function setUp(startGame: Game, answers: (DrawAnswer | Error)[]) {
  const asked: { at: number; request: DrawRequest }[] = [];
  const onDrawn = vi.fn();
  const onGone = vi.fn();
  let game = startGame;
  const draw = vi.fn(async (request: DrawRequest): Promise<DrawAnswer> => {
    asked.push({ at: Date.now() - NOW, request });
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    if (next instanceof Error) throw next;
    return next;
  });
  const hook = renderHook(
    ({ current }: { current: Game }) =>
      useDrawFlow({
        game: current,
        busy: false,
        draw,
        onDrawn: (result) => {
          onDrawn(result);
          game = result.game;
          hook.rerender({ current: game });
        },
        onGone,
      }),
    { initialProps: { current: game } },
  );
  return { hook, asked, onDrawn, onGone };
}

/** Lets the timers run `ms` and the answers they started settle. */
async function pass(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the pause between asks', () => {
  it('is what the server said the first time, then backs off 1, 2, 4, 8 s and stays at 10 s', () => {
    expect(nextAskDelayMs(2_150, 1)).toBe(2_150);
    expect([2, 3, 4, 5, 6, 9].map((n) => nextAskDelayMs(0, n))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    // Never sooner than the server asked, never longer than 10 s.
    expect(nextAskDelayMs(3_000, 2)).toBe(3_000);
    expect(nextAskDelayMs(60_000, 1)).toBe(10_000);
  });

  it('a game waits only while it is frozen with its round named and not yet fetched', () => {
    expect(awaitedRound(frozenGame(2_000))).toMatchObject({ round: ROUND, dueAt: NOW + 2_000, unreachable: false });
    expect(awaitedRound(frozenGame(2_000, true))).toBeNull();
    expect(awaitedRound({ ...frozenGame(2_000), status: 'open' })).toBeNull();
    expect(awaitedRound({ status: 'drawing', beacon: null })).toBeNull();
  });
});

describe('useDrawFlow', () => {
  it('after a reload, asks when the round is due, again when the server says, then draws once it is there', async () => {
    const game = frozenGame(2_000);
    const { hook, asked, onDrawn } = setUp(game, [
      { kind: 'waiting', waiting: waiting(game, 150) },
      { kind: 'drawn', result: drawn(frozenGame(2_000, true)) },
    ]);
    // Waiting from the game itself, before any answer.
    expect(hook.result.current.wait).toMatchObject({ round: ROUND, unreachable: false, error: null });
    await pass(1_999);
    expect(asked).toEqual([]);
    await pass(1);
    expect(asked).toEqual([{ at: 2_000, request: { gameId: 7, position: 1 } }]);
    await pass(150);
    expect(asked.map((a) => a.at)).toEqual([2_000, 2_150]);
    expect(onDrawn).toHaveBeenCalledTimes(1);
    expect(hook.result.current.wait).toBeNull();
    // Nothing more is asked once drawn.
    await pass(30_000);
    expect(asked).toHaveLength(2);
  });

  it('after the press that froze the game, waits what the server said, then backs off up to 10 s while the beacon is late, saying so', async () => {
    const game = frozenGame(3_000);
    const { hook, asked } = setUp(game, [
      { kind: 'waiting', waiting: waiting(game, 1_000, true) },
      { kind: 'waiting', waiting: waiting(game, 1_000, true) },
      { kind: 'waiting', waiting: waiting(game, 1_000, true) },
      { kind: 'waiting', waiting: waiting(game, 1_000, true) },
      { kind: 'waiting', waiting: waiting(game, 1_000, true) },
      { kind: 'drawn', result: drawn(frozenGame(3_000, true)) },
    ]);
    // The press's own 202 (R due in 3 s).
    act(() => hook.result.current.noteWaiting(7, waiting(game, 3_150)));
    expect(hook.result.current.wait?.dueAt).toBe(NOW + 3_000);
    await pass(3_149);
    expect(asked).toEqual([]);
    await pass(1);
    expect(hook.result.current.wait).toMatchObject({ unreachable: true });
    // 202s in a row: 1 s (as the server asked), 2 s, 4 s, 8 s, then the draw.
    for (const pause of [1_000, 2_000, 4_000, 8_000]) await pass(pause);
    expect(asked.map((a) => a.at)).toEqual([3_150, 4_150, 6_150, 10_150, 18_150]);
    await pass(10_000);
    expect(asked.map((a) => a.at)).toEqual([3_150, 4_150, 6_150, 10_150, 18_150, 28_150]);
    expect(hook.result.current.wait).toBeNull();
  });

  it('counts down on a device whose clock is off by what the server says is left, not by its clock', () => {
    // The server's clock is 2 minutes ahead of this device's: R is due in 3 s by the server.
    const game = frozenGame(120_000 + 3_000);
    const { hook } = setUp(game, []);
    act(() => hook.result.current.noteWaiting(7, waiting(game, 3_150)));
    expect(hook.result.current.wait?.dueAt).toBe(NOW + 3_150);
  });

  it('says a failed ask on the waiting panel and asks again; a game changed elsewhere is loaded again', async () => {
    const game = frozenGame(0);
    const gone = new ApiError(409, 'This game was voided', 'CONFLICT');
    const { hook, asked, onGone } = setUp(game, [new ApiError(0, 'Cannot reach the server.', 'NETWORK'), gone]);
    await pass(0);
    expect(hook.result.current.wait).toMatchObject({ error: 'Cannot reach the server.' });
    await pass(1_000);
    expect(asked).toHaveLength(2);
    expect(onGone).toHaveBeenCalledWith(gone);
  });
});

describe('the waiting panel', () => {
  const show = (wait: BeaconWait) =>
    render(<BeaconWaitView wait={wait} theme={GAME_THEMES.blue} size="room" note="The numbers are fixed." />);

  it('names the round and counts the seconds down to it, then says it is due', async () => {
    show({ round: ROUND, dueAt: NOW + 2_500, unreachable: false, error: null });
    expect(screen.getByRole('status').textContent).toBe(`Waiting for public randomness (round ${ROUND})…`);
    expect(screen.getByTestId('beacon-countdown').textContent).toBe('3');
    await pass(600);
    expect(screen.getByTestId('beacon-countdown').textContent).toBe('2');
    await pass(1_000);
    expect(screen.getByTestId('beacon-wait-detail').textContent).toBe('1second to go');
    await pass(1_000);
    expect(screen.queryByTestId('beacon-countdown')).toBeNull();
    expect(screen.getByTestId('beacon-wait-detail').textContent).toBe(
      'Due now: the draw follows as soon as it arrives…',
    );
  });

  it('says so plainly when the beacon does not answer, or the last ask failed', () => {
    const { unmount } = show({ round: ROUND, dueAt: NOW - 5_000, unreachable: true, error: null });
    expect(screen.getByTestId('beacon-wait-detail').textContent).toBe(BEACON_NOT_ANSWERING);
    unmount();
    show({ round: ROUND, dueAt: NOW + 5_000, unreachable: false, error: 'Cannot reach the server.' });
    expect(screen.getByTestId('beacon-wait-detail').textContent).toBe('Cannot reach the server: retrying…');
  });
});
