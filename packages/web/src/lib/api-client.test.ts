import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBodySchema } from '@lot/domain/errors';
import { api, ApiError, apiPage, errorMessage, readErrorBody, setSessionEndedHandler } from './api-client.ts';
import { storage } from './storage.ts';

/** Stands in for the network: the client's parsing is what is under test, not the server. */
function answer(status: number, body: string, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async () => new Response(status === 204 ? null : body, { status, headers }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const json = { 'content-type': 'application/json' };

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionEndedHandler(undefined);
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
