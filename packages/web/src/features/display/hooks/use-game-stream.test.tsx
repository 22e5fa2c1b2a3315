import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage.ts';
import { SILENCE_LIMIT_MS, useGameStream } from './use-game-stream.ts';

/** Stands in for the browser's EventSource: records each stream and lets the test send events. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  send(type: string, data = '1') {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data }));
  }
}

/** A game's public view as the server sends it (an open game, nothing drawn). */
const PROOF = {
  algorithm: 'LOT-DRAW-2',
  code: 'ABC123',
  shopName: 'User One',
  number: 3,
  status: 'open',
  openedAt: '2026-11-29T13:29:42.968Z',
  endedAt: null,
  startRange: 1,
  endRange: 20,
  betAmount: '10.00',
  betCents: 1000,
  prizes: [{ position: 1, name: 'Prize 1', percentBps: 5000, percent: '50.00' }],
  entries: [{ number: 1, name: 'P*** 1***', phoneNumber: '****0001', entryHash: 'd6'.repeat(32) }],
  entriesDigest: '24'.repeat(32),
  commitment: '9d'.repeat(32),
  beacon: {
    period: 3,
    chainHash: '8d'.repeat(32),
    publicKey: '93'.repeat(96),
    genesisTime: 1700000000,
    round: null,
    latestRound: null,
    expectedAt: null,
    signature: null,
    randomness: null,
  },
  frozenAt: null,
  draws: [],
  unplayedDraws: [],
  pool: '10.00',
  totalPrize: null,
  commission: null,
  voidReason: null,
  voidedBy: null,
  serverSeed: null,
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.made = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('useGameStream', () => {
  it('replaces a stream that has gone silent, and says it is reconnecting', () => {
    const { result } = renderHook(() => useGameStream('ABC123'));
    expect(FakeEventSource.made).toHaveLength(1);
    act(() => void vi.advanceTimersByTime(SILENCE_LIMIT_MS + 1));
    expect(result.current.connection).toBe('reconnecting');
    expect(FakeEventSource.made).toHaveLength(2);
    expect(FakeEventSource.made[0]?.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.made[1]?.url).toContain('/api/display/ABC123/events');
  });

  it('keeps a stream whose pings keep coming', () => {
    renderHook(() => useGameStream('ABC123'));
    const [stream] = FakeEventSource.made;
    for (let beat = 0; beat < 6; beat++) {
      act(() => void vi.advanceTimersByTime(15_000));
      act(() => stream?.send('ping'));
    }
    expect(FakeEventSource.made).toHaveLength(1);
    expect(stream?.readyState).toBe(FakeEventSource.OPEN);
  });

  it('opens a new stream at once when the server renews one, and stays Live (decision 088)', () => {
    const proof = JSON.stringify(PROOF);
    const { result } = renderHook(() => useGameStream('ABC123'));
    const [first] = FakeEventSource.made;
    act(() => first?.send('game', proof));
    expect(result.current.connection).toBe('live');
    act(() => first?.send('renew'));
    expect(first?.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.made).toHaveLength(2);
    expect(FakeEventSource.made[1]?.url).toBe('/api/display/ABC123/events');
    expect(result.current.connection).toBe('live');
    expect(result.current.proof?.code).toBe('ABC123');
    // The old stream's watchdog is gone: only the new one's silence would replace it.
    act(() => FakeEventSource.made[1]?.send('game', proof));
    act(() => void vi.advanceTimersByTime(SILENCE_LIMIT_MS - 1));
    expect(FakeEventSource.made).toHaveLength(2);
  });

  it('stops asking once the server says the game ended, and keeps its last view', async () => {
    const { result } = renderHook(() => useGameStream('ABC123'));
    const [stream] = FakeEventSource.made;
    act(() => stream?.send('game', JSON.stringify({ ...PROOF, status: 'settled' })));
    act(() => stream?.send('end'));
    expect(result.current.connection).toBe('ended');
    expect(stream?.readyState).toBe(FakeEventSource.CLOSED);
    await act(() => vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS * 3));
    act(() => void window.dispatchEvent(new Event('online')));
    expect(FakeEventSource.made).toHaveLength(1);
    expect(result.current.proof?.status).toBe('settled');
  });

  it('stops watching once the screen closes', () => {
    const { unmount } = renderHook(() => useGameStream('ABC123'));
    unmount();
    act(() => void vi.advanceTimersByTime(SILENCE_LIMIT_MS * 3));
    expect(FakeEventSource.made).toHaveLength(1);
  });

  it('stops asking for a game the server does not know: no backoff, no watchdog, however long the screen stays', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 404 })));
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useGameStream('NOSUCHGAME'));
    const [stream] = FakeEventSource.made;
    // The stream's 404 ends it (CLOSED); the proof's 404 says there is no such game.
    act(() => {
      if (stream) stream.readyState = FakeEventSource.CLOSED;
      stream?.send('error');
    });
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current.connection).toBe('missing');
    await act(() => vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS * 3));
    expect(FakeEventSource.made).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(result.current.connection).toBe('missing');
  });

  it("opens the signed-in shop's display with a ticket, and an anonymous one without (decision 046)", async () => {
    vi.useRealTimers();
    localStorage.setItem(STORAGE_KEYS.token, 'the-token');
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ ticket: '7.99.sig/+', expiresAt: '2026-11-26T00:00:00.000Z' }))),
    );
    vi.stubGlobal('fetch', fetchMock);
    const signedIn = renderHook(() => useGameStream('ABC123'));
    await waitFor(() => expect(FakeEventSource.made).toHaveLength(1));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/display/ABC123/tickets',
      expect.objectContaining({ method: 'POST', headers: { authorization: 'Bearer the-token' } }),
    );
    expect(FakeEventSource.made[0]?.url).toBe('/api/display/ABC123/events?ticket=7.99.sig%2F%2B');
    signedIn.unmount();

    localStorage.clear();
    renderHook(() => useGameStream('ABC123'));
    expect(FakeEventSource.made[1]?.url).toBe('/api/display/ABC123/events');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
