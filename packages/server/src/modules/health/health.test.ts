import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { HEALTH_FRESH_MS } from './health.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health and docs', () => {
  it('answers ok once the database answers', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 once the database stops answering, within a second', async () => {
    expect((await t.request(null, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const down = vi.spyOn(t.app.db, 'execute').mockRejectedValue(new Error('connection refused'));
    try {
      await new Promise((resolve) => setTimeout(resolve, HEALTH_FRESH_MS + 50));
      const response = await t.request(null, { method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable' });
    } finally {
      down.mockRestore();
    }
    expect((await t.request(null, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('sends the security headers on every response, API and error alike', async () => {
    for (const url of ['/api/health', '/api/does-not-exist']) {
      const response = await t.request(null, { method: 'GET', url });
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';" +
          "img-src 'self' data: blob:;object-src 'none';script-src 'self' 'wasm-unsafe-eval';script-src-attr 'none';" +
          "style-src 'self' 'unsafe-inline';upgrade-insecure-requests;media-src 'self' blob:;connect-src 'self'",
      );
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('serves the OpenAPI document listing the API calls', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signin', '/api/users', '/api/users/{id}']),
    );
  });

  it('serves the browsable docs', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('answers unknown API paths with the error shape', async () => {
    const response = await t.request(null, { method: 'GET', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND', requestId: expect.any(String) });
  });
});
