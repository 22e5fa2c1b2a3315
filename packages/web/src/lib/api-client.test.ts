import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBodySchema } from '@lot/domain/errors';
import {
  api,
  ApiError,
  apiPage,
  errorMessage,
  readErrorBody,
  onRetrying,
  setSessionEndedHandler,
} from './api-client.ts';
import { ActionKey, keyedCall } from './action-key.ts';
import { storage } from './storage.ts';

/** Stands in for the network: the client's parsing is what is under test, not the server. */
function answer(status: number, body: string, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async () => new Response(status === 204 ? null : body, { status, headers }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const json = { 'content-type': 'application/json' };

let stopListening = () => undefined as unknown;
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setSessionEndedHandler(undefined);
  stopListening();
  localStorage.clear();
});

describe('the API client reads failures', () => {
  it("keeps the server's message, code and field errors", async () => {
    answer(
      400,
      JSON.stringify({
        message: 'Amount must be greater than 0',
        code: 'VALIDATION_ERROR',
        fieldErrors: { amount: 'Amount must be greater than 0' },
      }),
      json,
    );
    const error = await api('/balance/transfer', { method: 'POST', body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Amount must be greater than 0',
      fieldErrors: { amount: 'Amount must be greater than 0' },
    });
    expect(errorMessage(error, 'Transfer failed')).toBe('Amount must be greater than 0');
  });

  it("says the screen's fallback, never the HTTP status text, when the body is not the server's shape", async () => {
    for (const [status, body] of [
      [502, '<html><body>Bad Gateway</body></html>'],
      [500, ''],
      [503, JSON.stringify({ error: 'down' })],
    ] as const) {
      answer(status, body);
      const error = await api('/users').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status, code: 'UNKNOWN' });
      expect(errorMessage(error, 'Failed to create user')).toBe('Failed to create user');
    }
  });

  it('says the connection failed when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await api('/users').catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 0,
      code: 'NETWORK',
      message: 'Cannot reach the server. Check your connection and try again.',
    });
  });

  it('ends the session on a 401, except for sign-in whose 401 is a wrong password', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    answer(401, JSON.stringify({ message: 'Invalid credentials', code: 'UNAUTHORIZED' }), json);
    await api('/auth/signin', { method: 'POST', body: {}, anonymous: true }).catch(() => undefined);
    expect(ended).not.toHaveBeenCalled();
    answer(401, JSON.stringify({ message: 'Session expired', code: 'UNAUTHORIZED' }), json);
    await api('/users').catch(() => undefined);
    expect(ended).toHaveBeenCalledOnce();
  });
});

describe('the API client sends', () => {
  it('the bearer token, the query without empty values, and an idempotency key on money calls', async () => {
    storage.saveToken('token-1');
    const fetch = answer(200, '[]', { ...json, 'x-total-count': '42' });
    const page = await apiPage('/transactions', { query: { page: 2, search: '', type: undefined, status: null } });
    expect(page.total).toBe(42);
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.search).toBe('?page=2');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-1' });
    expect(init.headers).not.toHaveProperty('idempotency-key');

    const keys: unknown[] = [];
    for (const idempotent of [true, true, 'fixed-key']) {
      const call = answer(200, '{}', json);
      await api('/balance/transfer', { method: 'POST', body: { amount: 1 }, idempotent });
      const [, sent] = call.mock.calls[0] as unknown as [URL, RequestInit];
      keys.push((sent.headers as Record<string, string>)['idempotency-key']);
    }
    // A fresh key per new call (a retry of the same call reuses its key by passing it).
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe('fixed-key');
  });
});

/** A network whose answers are given in turn: a thrown error is a failed fetch. */
function answers(...replies: (number | Error)[]) {
  const fetch = vi.fn(async () => {
    const reply = replies.shift();
    if (reply === undefined) throw new Error('no more answers');
    if (reply instanceof Error) throw reply;
    return new Response(reply === 200 ? '{"message":"done"}' : '', { status: reply, headers: json });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const keysSent = (fetch: ReturnType<typeof answers>) =>
  fetch.mock.calls.map(
    (call) => ((call as unknown as [URL, RequestInit])[1].headers as Record<string, string>)['idempotency-key'],
  );

describe('a keyed call after no answer (decision 056)', () => {
  it('is sent again with the same key, after 0.5 s and 1 s, telling the person once', async () => {
    vi.useFakeTimers();
    const told = vi.fn();
    stopListening = onRetrying(told);
    const fetch = answers(new TypeError('Failed to fetch'), 502, 200);
    const call = api('/api/balance/transfer', { method: 'POST', body: {}, idempotent: true });
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await call).toEqual({ message: 'done' });
    const keys = keysSent(fetch);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(told.mock.calls).toEqual([['Cannot reach the server. Trying again…']]);
  });

  it('gives up after four sends with the last failure', async () => {
    vi.useFakeTimers();
    const fetch = answers(503, 503, 504, 503);
    const call = api('/api/balance/topup', { method: 'POST', body: {}, idempotent: 'fixed' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3_500);
    expect(await call).toMatchObject({ status: 503 });
    expect(keysSent(fetch)).toEqual(['fixed', 'fixed', 'fixed', 'fixed']);
  });

  it('is never resent when unkeyed, or when the server answered', async () => {
    const told = vi.fn();
    stopListening = onRetrying(told);
    for (const [options, reply] of [
      [{ method: 'POST' as const, body: {} }, new TypeError('Failed to fetch')],
      [{ method: 'POST' as const, body: {} }, 502],
      [{ method: 'POST' as const, body: {}, idempotent: true }, 500],
      [{ method: 'POST' as const, body: {}, idempotent: true }, 422],
    ] as const) {
      const fetch = answers(reply, 200);
      await api('/api/x', options).catch(() => undefined);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
    expect(told).not.toHaveBeenCalled();
  });

  it("keeps an action's key across re-clicks until an answer", async () => {
    let n = 0;
    const action = new ActionKey(() => `k${++n}`);
    const sent: string[] = [];
    const attempt = (input: unknown, outcome: number) =>
      keyedCall(action, input, async (key) => {
        sent.push(key);
        if (outcome !== 200) throw new ApiError(outcome, '', 'X');
        return outcome;
      }).catch(() => undefined);
    await attempt({ amount: 1 }, 0);
    await attempt({ amount: 1 }, 503);
    await attempt({ amount: 1 }, 200);
    await attempt({ amount: 1 }, 200);
    await attempt({ amount: 2 }, 400);
    await attempt({ amount: 2 }, 0);
    expect(sent).toEqual(['k1', 'k1', 'k1', 'k2', 'k3', 'k4']);
  });
});

describe('readErrorBody', () => {
  it('accepts exactly what errorBodySchema accepts', () => {
    const shaped = fc.record(
      {
        message: fc.oneof(fc.string(), fc.anything()),
        code: fc.oneof(fc.string(), fc.anything()),
        fieldErrors: fc.oneof(
          fc.dictionary(fc.string(), fc.string()),
          fc.dictionary(fc.string(), fc.anything()),
          fc.anything(),
        ),
        requestId: fc.oneof(fc.string(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(shaped, fc.anything()), (body) => {
        expect(readErrorBody(body) !== null).toBe(errorBodySchema.safeParse(body).success);
      }),
      { numRuns: 2000 },
    );
  });
});
