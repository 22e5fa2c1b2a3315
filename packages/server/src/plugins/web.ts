import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';

const defaultRoot = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built single-page app from the API's own origin. Unknown API paths are 404 JSON;
 * any other unknown path gets index.html so the client router can take it.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { root?: string }) => {
  const root = options.root ?? defaultRoot;
  const built = existsSync(`${root}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/, so those files never change.
        if (path.includes('/assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      if (request.url.startsWith('/api/')) throw new AppError('NOT_FOUND', MESSAGES.notFound);
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  } else {
    app.log.warn(`no built web app in ${root}: run \`npm run build\` to serve it`);
  }
});
