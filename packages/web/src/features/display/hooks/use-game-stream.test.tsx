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
