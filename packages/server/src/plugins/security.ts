import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
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

/** Security headers on every response. The CSP allows only our own origin (plus images as blobs). */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
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
