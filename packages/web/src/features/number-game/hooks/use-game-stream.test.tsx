import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
});
