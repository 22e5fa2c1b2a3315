import type { MouseEvent, ReactNode } from 'react';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import type { EffectiveWinners } from '@lot/domain/schemas/winners';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { useGameController } from './use-game-controller.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const winners: EffectiveWinners = {
  source: 'own',
  winners: [1, 2].map((position) => ({
    id: position,
    userId: 1,
    name: position === 1 ? 'First Prize' : 'Second Prize',
    percent: position === 1 ? '50.00' : '25.00',
    position,
    description: null,
    isActive: true,
    createdAt: '2026-11-26T09:00:00.000Z',
    user: null,
  })),
};

const ENTRIES = [
  { number: 2, name: 'Ana Lopez', phoneNumber: '555-0102', nonce: '0123456789abcdef' },
  { number: 5, name: 'Ben Okafor', phoneNumber: '555-0105', nonce: 'fedcba9876543210' },
];

/** A game of 1..10 at 5.00, in `status`, with `entries` and `drawn` numbers drawn (in order). */
function gameOf(status: Game['status'], { entries = ENTRIES, drawn = [] as number[], beacon = false } = {}): Game {
  return {
    id: 7,
    number: 3,
    code: 'G7CODE',
    status,
    userId: 1,
    user: { id: 1, username: 'shop', fullName: 'Shop', shopName: null },
    startRange: 1,
    endRange: 10,
    betAmount: '5.00',
    pool: `${entries.length * 5}.00`,
    prizes: [
      { position: 1, name: 'First Prize', percent: '50.00', percentBps: 5000, prizeAmount: '5.00' },
      { position: 2, name: 'Second Prize', percent: '25.00', percentBps: 2500, prizeAmount: '2.50' },
    ],
    protocol: beacon ? 'LOT-DRAW-2' : 'LOT-DRAW-1',
    beacon: beacon
      ? {
          chainHash: 'c'.repeat(64),
          publicKey: 'k'.repeat(192),
          genesisTime: 1,
          period: 3,
          round: 4242,
          expectedAt: new Date(Date.now() + 60_000).toISOString(),
          signature: null,
          randomness: null,
        }
      : null,
    commitment: 'a'.repeat(64),
    entries,
    frozenAt: status === 'open' ? null : '2026-11-26T10:00:00.000Z',
    draws: drawn.map((number, i) => ({
      position: i + 1,
      number,
      drawnAt: '2026-11-26T10:00:01.000Z',
      winner: entries.find((e) => e.number === number) ?? null,
      prizeAmount: '0.00',
    })),
    unplayedDraws: [],
    totalPrize: null,
    commission: status === 'settled' ? '2.50' : null,
    saleId: null,
    transactionId: null,
    openedAt: '2026-11-26T09:59:00.000Z',
    endedAt: status === 'settled' || status === 'voided' ? '2026-11-26T10:01:00.000Z' : null,
    voidReason: status === 'voided' ? 'Reset before the first draw' : null,
    voidedBy: null,
    serverSeed: null,
  } as Game;
}

type Answer = { status: number; body: unknown } | 'offline' | Promise<{ status: number; body: unknown }>;

/**
 * The network: GET /api/winners/effective answers the winners; GET /api/games/current (and the
 * game held, asked again) answers `current`; every other call takes the next of `answers`. The calls made are kept.
 */
function serve(current: Answer, ...answers: Answer[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL, init: RequestInit) => {
      const path = new URL(String(url)).pathname;
      calls.push(`${init.method ?? 'GET'} ${path}`);
      const method = init.method ?? 'GET';
      const answer =
        path === '/api/winners/effective'
          ? { status: 200, body: winners }
          : await (method === 'GET' && path.startsWith('/api/games/') ? current : answers.shift());
      if (answer === 'offline' || answer === undefined) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

function controller(balanceCents: number | null = 100_00, printed: string | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onMoneyChanged = vi.fn();
  const printSlip = vi.fn(async (_game: Game, _number: number) => printed);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
  const hook = renderHook(() => useGameController({ balanceCents: balanceCents as never, onMoneyChanged, printSlip }), {
    wrapper,
  });
  return { ...hook, onMoneyChanged, printSlip };
}

const click = { detail: 1 } as MouseEvent;

describe('useGameController', () => {
  it('loading: nothing allowed to draw while the first answer has not come', () => {
    serve(new Promise(() => {}));
    const { result } = controller();
    expect(result.current.state).toBe('loading');
    expect(result.current.allows.check).toBe(false);
  });

  it('failed: offline with nothing to show, and Try Again asks again', async () => {
    const calls = serve('offline');
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('failed'));
    expect(result.current.play.error?.message).toMatch(/Cannot reach the server/);
    const asked = calls.filter((c) => c === 'GET /api/games/current').length;
    await act(() => result.current.play.refetch());
    expect(calls.filter((c) => c === 'GET /api/games/current').length).toBe(asked + 1);
  });

  it('none: no game yet — the live prizes, the setup editable, numbers to pick, nothing to draw', async () => {
    serve({ status: 200, body: null });
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('none'));
    await waitFor(() => expect(result.current.prizes).toHaveLength(2));
    expect(result.current.prizes?.map((p) => p.percentBps)).toEqual([5000, 2500]);
    expect(result.current.allows).toEqual({ editSetup: true, pick: true, check: false, reset: true });
    expect(result.current.checkLabel).toBe('Check Winner (0/2)');
    expect(result.current.resetLabel).toBe('Reset Game');
    expect(result.current.shows).toMatchObject({
      setupLockedNote: false,
      over100: false,
      winners: false,
      outcome: false,
    });
    act(() => result.current.pick(4));
    expect(result.current.picking).toBe(4);
    expect(result.current.pickingParticipant).toBeNull();
  });

  it('open: a game without participants keeps its setup editable and has nothing to draw', async () => {
    serve({ status: 200, body: gameOf('open', { entries: [] }) });
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('open'));
    expect(result.current.allows).toEqual({ editSetup: true, pick: true, check: false, reset: true });
    expect(result.current.shows.setupLockedNote).toBe(false);
  });

  it('entries: the setup is locked (and says so), numbers can still be picked, Check Winner is allowed', async () => {
    serve({ status: 200, body: gameOf('open') });
    const { result } = controller(7_00);
    await waitFor(() => expect(result.current.state).toBe('entries'));
    expect(result.current.allows).toEqual({ editSetup: false, pick: true, check: true, reset: true });
    expect(result.current.shows).toMatchObject({ setupLockedNote: true, winners: false, outcomeFixed: false });
    expect(result.current.poolCents).toBe(10_00);
    expect([...result.current.selected.keys()]).toEqual([2, 5]);
    act(() => result.current.pick(2));
    expect(result.current.pickingParticipant?.name).toBe('Ana Lopez');
    // A third participant would make a pool of 15.00 over the balance of 7.00: their dialog says so.
    expect(result.current.poolWarning).toMatch(/15\.00/);
  });

  it('entries: Save and print slip prints the slip of the game the server answered, once saved; Save alone and a refused save print nothing', async () => {
    const added = { number: 8, name: 'Cleo Park', phoneNumber: '555-0108' };
    const saved = gameOf('open', { entries: [...ENTRIES, { ...added, nonce: '00112233aabbccdd' }] });
    const calls = serve(
      { status: 200, body: gameOf('open') },
      { status: 200, body: saved },
      { status: 409, body: { error: 'CONFLICT', message: 'Game already has draws' } },
      { status: 200, body: saved },
    );
    const { result, printSlip } = controller();
    await waitFor(() => expect(result.current.state).toBe('entries'));

    expect(await act(() => result.current.saveParticipant(added, true))).toBeNull();
    await waitFor(() => expect(printSlip).toHaveBeenCalledTimes(1));
    const [game, number] = printSlip.mock.calls[0] ?? [];
    // The slip is the saved entry's, with the entry code the server gave it.
    expect(number).toBe(8);
    expect(game?.entries.find((e) => e.number === 8)?.nonce).toBe('00112233aabbccdd');
    expect(calls).toContain('PUT /api/games/7/entries');

    expect(await act(() => result.current.saveParticipant(added, true))).toMatch(/changed on another screen/);
    expect(await act(() => result.current.saveParticipant(added, false))).toBeNull();
    expect(printSlip).toHaveBeenCalledTimes(1);

    // A row's print: the slip again, of the game as the server last answered it.
    act(() => result.current.printSlip(5));
    await waitFor(() => expect(printSlip).toHaveBeenCalledTimes(2));
    expect(printSlip.mock.calls[1]?.[1]).toBe(5);
    await waitFor(() => expect(result.current.printing).toBeNull());
  });

  it('drawing: Check Winner draws the next position, shows the winner and tells the balance', async () => {
    const frozen = gameOf('drawing', { drawn: [5] });
    const result1: DrawResult = {
      position: 2,
      number: 2,
      winner: { number: 2, name: 'Ana Lopez', phoneNumber: '555-0102' },
      prizeAmount: '2.50',
      game: gameOf('drawing', { drawn: [5, 2] }),
    };
    const calls = serve({ status: 200, body: frozen }, { status: 200, body: result1 });
    const { result, onMoneyChanged } = controller();
    await waitFor(() => expect(result.current.state).toBe('drawing'));
    expect(result.current.started).toBe(true);
    expect(result.current.allows).toEqual({ editSetup: false, pick: false, check: true, reset: true });
    expect(result.current.shows).toMatchObject({ winners: true, outcomeFixed: true, setupLockedNote: false });
    expect(result.current.resetLabel).toBeNull();
    expect(result.current.checkLabel).toBe('Check Winner (1/2)');
    act(() => result.current.pick(3));
    expect(result.current.picking).toBeNull();
    await act(async () => result.current.checkWinner(click));
    await waitFor(() => expect(result.current.winner?.name).toBe('Ana Lopez'));
    expect(calls).toContain('POST /api/games/7/draws');
    expect(onMoneyChanged).toHaveBeenCalled();
  });

  it('waiting: a frozen LOT-DRAW-2 game waits for its beacon round, and Check Winner is not allowed', async () => {
    const frozen = gameOf('drawing', { beacon: true });
    const waiting: DrawWaiting = {
      waitingForRound: 4242,
      expectedAt: frozen.beacon?.expectedAt ?? '',
      retryAfterMs: 60_000,
      beaconUnreachable: false,
      game: frozen,
    };
    serve({ status: 200, body: gameOf('open', { beacon: true }) }, { status: 202, body: waiting });
    const { result, onMoneyChanged } = controller();
    await waitFor(() => expect(result.current.state).toBe('entries'));
    await act(async () => result.current.checkWinner(click));
    await waitFor(() => expect(result.current.state).toBe('waiting'));
    expect(result.current.wait?.round).toBe(4242);
    expect(result.current.allows.check).toBe(false);
    expect(result.current.allows.pick).toBe(false);
    expect(onMoneyChanged).toHaveBeenCalled();
  });

  it('settled: the outcome shows, nothing more to draw, and New Game starts a fresh board', async () => {
    serve({ status: 200, body: gameOf('settled', { drawn: [5, 2] }) });
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('settled'));
    expect(result.current.allows).toEqual({ editSetup: false, pick: false, check: false, reset: true });
    expect(result.current.shows).toMatchObject({ outcome: true, winners: true, outcomeFixed: false });
    expect(result.current.resetLabel).toBe('New Game');
    expect(result.current.commissionCents).toBe(2_50);
    expect(result.current.drawn).toEqual([5, 2]);
    act(() => result.current.askReset());
    await waitFor(() => expect(result.current.state).toBe('none'));
    expect(result.current.resetMode).toBeNull();
  });

  it('voided: the game ended without its draws — the outcome shows and New Game is offered', async () => {
    serve({ status: 200, body: gameOf('voided') });
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('voided'));
    expect(result.current.allows.check).toBe(false);
    expect(result.current.shows.outcome).toBe(true);
    expect(result.current.resetLabel).toBe('New Game');
  });

  it('offline: a draw request that fails leaves the game as it was, and Check Winner allowed again', async () => {
    const frozen = gameOf('drawing', { drawn: [5] });
    const calls = serve({ status: 200, body: frozen }, 'offline');
    const { result } = controller();
    await waitFor(() => expect(result.current.state).toBe('drawing'));
    await act(async () => result.current.checkWinner(click));
    // The same position is asked again three times (0.5 s, 1 s, 2 s apart) before giving up.
    await waitFor(() => expect(calls.filter((c) => c === 'POST /api/games/7/draws')).toHaveLength(4), {
      timeout: 6000,
    });
    await waitFor(() => expect(result.current.drawPending).toBe(false));
    expect(result.current.state).toBe('drawing');
    expect(result.current.winner).toBeNull();
    expect(result.current.allows.check).toBe(true);
  });
});
