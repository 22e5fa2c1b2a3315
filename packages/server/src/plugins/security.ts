import { SERVER_MESSAGES } from '@lot/domain/server-messages';
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

/**
 * Helmet's options. `upgrade-insecure-requests`, HSTS and Cross-Origin-Opener-Policy only for pages
 * served over https: on a plain-http LAN address (PUBLIC_URL=http://192.168.1.20:3000) the first
 * made the browser fetch every script and style over https, which no one serves there, and the
 * page stayed blank; browsers ignore the other two over http (COOP with an error in the console).
 * docs/product/runtime-and-security.md#headers
 */
function helmetOptions(https: boolean): HelmetOptions {
  return {
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
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https,
    crossOriginOpenerPolicy: https,
    crossOriginEmbedderPolicy: false,
  };
}

/** Helmet's headers for a page served over https or not: nothing else in the request changes them. */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(helmetOptions(https))({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every response. The CSP allows only our own origin (plus images as blobs).
 * Computed once at start, both sets: @fastify/helmet rebuilt them, CSP parsing included, on every
 * request. A request counts as https when PUBLIC_URL is https (the customers' address, whatever
 * the hop to us) or it came in over https — `request.protocol`, which follows X-Forwarded-Proto
 * only from a proxy TRUST_PROXY names, as public links do.
 */
export const securityPlugin = fp(async (app: FastifyInstance, options: { publicUrl?: string }) => {
  const publicHttps = options.publicUrl?.startsWith('https:') ?? false;
  const secure = securityHeaders(true);
  const plain = securityHeaders(false);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(publicHttps || request.protocol === 'https' ? secure : plain);
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
        throw new AppError('VALIDATION_ERROR', SERVER_MESSAGES.unstorableText, {
          fieldErrors: { [field === 'body' ? part : field]: SERVER_MESSAGES.unstorableText },
        });
      }
    }
  });
});
