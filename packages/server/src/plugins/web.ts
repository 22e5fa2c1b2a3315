import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';

const defaultRoot = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built single-page app from the API's own origin. Unknown API paths are 404 JSON;
 * any other unknown path gets index.html so the client router can take it.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: { root?: string }) => {
  const root = options.root ?? defaultRoot;
  const built = existsSync(`${root}/index.html`);
  if (built) {
    // @fastify/static registers each file as its own route (wildcard: false); /metrics labels them
    // all "static", or every release would add a series per hashed asset (decision 026).
    app.addHook('onRoute', (route) => {
      if (route.url !== '/*' && !route.url.startsWith('/api/') && route.url !== '/metrics')
        route.config = { ...route.config, metricsRoute: 'static' };
    });
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
      const path = request.url.split('?')[0] ?? '/';
      if (path.startsWith('/api/')) throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
      // A file (built after start, or missing): from disk or 404, never the page in its place.
      if (/\.[a-z0-9]+$/i.test(path)) return reply.sendFile(path.slice(1));
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  } else {
    app.log.warn(`no built web app in ${root}: run \`npm run build\` to serve it`);
  }
});
