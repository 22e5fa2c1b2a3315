import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { AppError } from '@lot/domain/errors';

/**
 * Text PostgreSQL cannot store: U+0000 (not allowed in `text`) and a lone UTF-16 surrogate (a
 * `\ud800` escape that `jsonb` refuses). Both reached the database and failed there as 500s.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = 'Text must not contain the NUL character or broken Unicode';

/** The path of the first string in a parsed input that PostgreSQL cannot store. */
function findUnstorable(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000') || LONE_SURROGATE.test(value) ? path.join('.') || 'body' : undefined;
  }
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findUnstorable(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // 'wasm-unsafe-eval' lets the page compile WebAssembly (the Pay prizes QR reader, served from
      // 'self'); it allows no eval of JavaScript. docs/product/runtime-and-security.md#headers
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** Helmet's headers for these options: they depend on nothing in the request, so once is enough. */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every response. The CSP allows only our own origin (plus images as blobs).
 * Computed once at start: @fastify/helmet rebuilt them, CSP parsing included, on every request.
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  // API answers carry tokens, balances and people: no browser or shared cache may keep them. A
  // route that knows better (the logo) sets its own.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  // No field of ours has a use for such text, so every validated input is refused with a 400.
  app.addHook('preHandler', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = findUnstorable(value);
      if (field !== undefined) {
        throw new AppError('VALIDATION_ERROR', UNSTORABLE_MESSAGE, {
          fieldErrors: { [field === 'body' ? part : field]: UNSTORABLE_MESSAGE },
        });
      }
    }
  });
});
