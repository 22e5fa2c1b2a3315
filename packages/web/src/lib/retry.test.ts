import { describe, expect, it } from 'vitest';
import { ActionKey } from './action-key.ts';
import { isNoAnswer, RETRY_DELAYS_MS, retryDelay } from './retry.ts';

/** Decision 056: which failures are resent, after how long, and how long an action keeps its key. */

describe('retryDelay', () => {
  it('resends a keyed call after no answer: 0.5 s, 1 s, 2 s, then gives up', () => {
    for (const status of [0, 502, 503, 504]) {
      const waits = [1, 2, 3, 4].map((failures) => retryDelay({ keyed: true, status, failures }));
      expect(waits, String(status)).toEqual([500, 1_000, 2_000, null]);
    }
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(3_500);
  });

  it('never resends an unkeyed call, nor one the server answered', () => {
    for (const status of [0, 502, 503, 504]) expect(retryDelay({ keyed: false, status, failures: 1 })).toBeNull();
    for (const status of [200, 400, 401, 403, 404, 409, 422, 429, 500, -1]) {
      expect(retryDelay({ keyed: true, status, failures: 1 }), String(status)).toBeNull();
    }
  });

  it('counts 0 (a failed fetch) and a proxy’s 502, 503, 504 as no answer', () => {
    expect([0, 200, 400, 500, 501, 502, 503, 504, 505].filter(isNoAnswer)).toEqual([0, 502, 503, 504]);
  });
});

describe('ActionKey', () => {
  const counting = () => {
    let n = 0;
    return new ActionKey(() => `key-${++n}`);
  };

  it('keeps the key for the same input until an answer', () => {
    const action = counting();
    const input = { receiverId: 7, amount: 1_000 };
    expect(action.keyFor(input)).toBe('key-1');
    action.settle(0); // the network failed
    expect(action.keyFor({ amount: 1_000, receiverId: 7 })).toBe('key-1');
    action.settle(502); // a proxy: the process behind it died
    expect(action.keyFor(input)).toBe('key-1');
    action.settle(500); // a server fault: it may have applied
    expect(action.keyFor(input)).toBe('key-1');
    action.settle(200); // answered
    expect(action.keyFor(input)).toBe('key-2');
  });

  it('starts a new action after a refusal, or when the input changes', () => {
    const action = counting();
    expect(action.keyFor({ amount: 5 })).toBe('key-1');
    action.settle(422);
    expect(action.keyFor({ amount: 5 })).toBe('key-2');
    action.settle(0);
    expect(action.keyFor({ amount: 6 })).toBe('key-3');
    action.settle(0);
    expect(action.keyFor({ amount: 5 })).toBe('key-4');
  });
});
