import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, withWebApp } from '../../test/test-app.ts';
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
    const down = vi.spyOn(t.app.context.db, 'execute').mockRejectedValue(new Error('connection refused'));
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

  it('a stopping process answers health and readiness 503, so neither a balancer nor an orchestrator sends it calls', async () => {
    expect((await t.request(null, { method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    t.app.stopping.draining = true;
    try {
      const health = await t.request(null, { method: 'GET', url: '/api/health' });
      expect({ status: health.statusCode, body: health.json() }).toEqual({ status: 503, body: { status: 'stopping' } });
      const ready = await t.request(null, { method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe('The service is not ready: this process is stopping');
    } finally {
      t.app.stopping.draining = false;
    }
  });

  // Over plain http (this app has no PUBLIC_URL): no upgrade-insecure-requests, HSTS or COOP, which
  // plugins/security.test.ts checks against https.
  it('sends the security headers on every response, API and error alike', async () => {
    for (const url of ['/api/health', '/api/does-not-exist']) {
      const response = await t.request(null, { method: 'GET', url });
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';" +
          "img-src 'self' data: blob:;object-src 'none';script-src 'self' 'wasm-unsafe-eval';script-src-attr 'none';" +
          "style-src 'self' 'unsafe-inline';media-src 'self' blob:;connect-src 'self'",
      );
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
      });
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
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

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Record<string, { schema: Json }>; content?: Record<string, { schema: Json }> }>;
};
type OpenApi = {
  openapi: string;
  servers?: { url: string; description?: string; 'x-internal'?: boolean }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
};

/** The client-generation and lint checks of docs/api.md, on the document the app serves (read once). */
describe('the OpenAPI document', () => {
  let doc: OpenApi;
  let operations: { method: string; path: string; operation: Operation }[];
  beforeAll(async () => {
    doc = (await t.request(null, { method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
    );
  });
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const resolve = (schema: Json): Json =>
    typeof schema.$ref === 'string'
      ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!
      : schema;
  /** Every schema inside one, $refs followed (once each). */
  const walk = (schema: Json, visit: (schema: Json) => void, seen = new Set<Json>()) => {
    const resolved = resolve(schema);
    if (seen.has(resolved)) return;
    seen.add(resolved);
    visit(resolved);
    for (const [key, child] of Object.entries(resolved)) {
      if (key === 'properties' && child) for (const value of Object.values(child)) walk(value as Json, visit, seen);
      else if (Array.isArray(child) && ['anyOf', 'allOf', 'oneOf'].includes(key))
        for (const value of child) walk(value as Json, visit, seen);
      else if ((key === 'items' || key === 'additionalProperties') && typeof child === 'object' && child)
        walk(child as Json, visit, seen);
    }
  };

  it('names every operation once (camelCase), tags it with a declared tag and documents a success answer', () => {
    expect(operations.length).toBeGreaterThan(80);
    const declared = new Set(doc.tags.map((tag) => tag.name));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z]+[A-Za-z]*$/);
      expect(operation.tags?.length, where).toBe(1);
      expect(declared.has(operation.tags![0]!), where).toBe(true);
      expect(
        Object.keys(operation.responses).some((status) => /^2\d\d$/.test(status)),
        where,
      ).toBe(true);
    }
  });

  it('gives every operation a summary, every nullable a type (OpenAPI 3.0), and a server', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    const summaries = operations.map(({ operation }) => operation.summary);
    for (const [index, summary] of summaries.entries()) {
      const { method, path } = operations[index]!;
      expect(summary, `${method.toUpperCase()} ${path}`).toMatch(/^[A-Z][a-z-]*( [A-Za-z-]+)*$/);
    }
    expect(new Set(summaries).size).toBe(summaries.length);
    expect(operations.find(({ path }) => path === '/api/public-url')?.operation.summary).toBe('Get public URL');
    const untyped: string[] = [];
    const find = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((item, i) => find(item, `${at}/${i}`));
      else if (value && typeof value === 'object') {
        if ((value as Json).nullable === true && (value as Json).type === undefined) untyped.push(at);
        for (const [key, child] of Object.entries(value)) find(child, `${at}/${key}`);
      }
    };
    find(doc, '#');
    expect(untyped).toEqual([]);
    // A nullable shared schema, a nullable object and a nullable union of two types.
    expect(doc.components.schemas.Game!.properties).toMatchObject({
      totalPrize: { type: 'string', nullable: true, allOf: [{ $ref: '#/components/schemas/Money' }] },
    });
    expect(doc.components.schemas.AuditEntry!.properties).toMatchObject({ actor: { type: 'object', nullable: true } });
    const parentId = (
      doc.paths['/api/users']!.post!.requestBody!.content['application/json']!.schema.properties as Json
    ).parentId as Json;
    expect(parentId.anyOf).toEqual([
      expect.objectContaining({ type: 'number', nullable: true }),
      expect.objectContaining({ type: 'string', nullable: true }),
    ]);
    // Without PUBLIC_URL the server is wherever the document was read; with it, PUBLIC_URL. Each
    // names its audience and environment (OWASP's inventory rules, errors in npm run lint:openapi).
    expect(doc.servers).toEqual([
      { url: '/', description: expect.stringMatching(/production|local/), 'x-internal': false },
    ]);
    await withWebApp(
      t,
      {},
      async (web) => {
        const served = (await web.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
        expect(served.servers).toEqual([
          { url: 'http://192.168.1.20:3000', description: expect.stringMatching(/production/), 'x-internal': false },
        ]);
      },
      { publicUrl: 'http://192.168.1.20:3000' },
    );
  });

  it('documents every export as a CSV or Excel file with its Content-Disposition', () => {
    const exports = operations.filter(({ path }) => path.endsWith('/export'));
    expect(exports).toHaveLength(12);
    for (const { path, operation } of exports) {
      const ok = operation.responses['200']!;
      expect(Object.keys(ok.content ?? {}).sort(), path).toEqual([XLSX, 'text/csv'].sort());
      for (const media of Object.values(ok.content!))
        expect(media.schema).toMatchObject({ type: 'string', format: 'binary' });
      expect(ok.headers?.['Content-Disposition'], path).toBeDefined();
    }
  });

  it('refers to shared component schemas, money typed as Money and Amount', () => {
    const { schemas } = doc.components;
    for (const name of ['Money', 'AmountInput', 'User', 'Game', 'Transaction', 'Error', 'Balance', 'AuditEntry']) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(schemas.Money).toMatchObject({ type: 'string', format: 'decimal', pattern: '^-?\\d{1,17}\\.\\d{2}$' });
    expect(schemas.Balance!.properties).toMatchObject({ amount: { $ref: '#/components/schemas/Money' } });
    const topup = doc.paths['/api/balance/topup']!.post!;
    const body = resolve(topup.requestBody!.content['application/json']!.schema);
    expect(body.properties).toMatchObject({ amount: { $ref: '#/components/schemas/AmountInput' } });
    expect(schemas.AmountInput!.anyOf).toEqual([
      expect.objectContaining({ type: 'number', minimum: 0, exclusiveMinimum: true }),
      expect.objectContaining({ type: 'string', pattern: expect.any(String) }),
    ]);
    expect(topup.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/MoneyResult',
    });
    expect(topup.responses['403']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });

  it('documents the X-Total-* headers each list sends', async () => {
    const lists = operations.filter(
      ({ method, operation }) =>
        method === 'get' &&
        !(operation.parameters ?? []).some((parameter) => parameter.in === 'path' || parameter.required) &&
        operation.responses['200']?.content?.['application/json'],
    );
    let sent = 0;
    for (const { path, operation } of lists) {
      const response = await t.request(t.adminToken, { method: 'GET', url: path });
      const totals = Object.keys(response.headers).filter((name) => name.startsWith('x-total-'));
      const documented = Object.keys(operation.responses['200']!.headers ?? {}).map((name) => name.toLowerCase());
      expect(documented, path).toEqual(expect.arrayContaining(totals));
      sent += totals.length;
    }
    expect(sent).toBeGreaterThanOrEqual(10);
  });

  // The error-level rules of .spectral.yaml (the OWASP ruleset and ours), for a machine without Spectral.
  it('passes the lint checks docs/api.md lists', () => {
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        walk(media.schema, (schema) => {
          if (schema.type === 'string') {
            expect(
              ['maxLength', 'enum', 'const', 'format', 'pattern'].some((key) => key in schema),
              where,
            ).toBe(true);
          }
          if (schema.type === 'array') expect(schema.maxItems, where).toBeDefined();
        });
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '429') expect(response.headers?.['Retry-After'], where).toBeDefined();
        for (const header of Object.values(response.headers ?? {})) {
          if (header.schema.type === 'integer') expect(header.schema, where).toHaveProperty('maximum');
        }
      }
    }
    const integers: Json[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        if ((value as Json).type === 'integer') integers.push(value as Json);
        Object.values(value).forEach(collect);
      }
    };
    collect(doc);
    expect(integers.length).toBeGreaterThan(0);
    for (const integer of integers) expect(['int32', 'int64']).toContain(integer.format);
    expect(doc.components.securitySchemes.bearerAuth!.description).toContain('RFC8725');
  });
});
