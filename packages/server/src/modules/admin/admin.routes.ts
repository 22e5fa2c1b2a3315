import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { binaryBody } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { backupDatabase } from './backup.service.ts';

/** Calls for running the system, the admin's only (decision 027). */
export const adminRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('preValidation', app.requireRole('admin'));

  app.get(
    '/api/admin/backup',
    {
      schema: {
        tags: ['admin'],
        operationId: 'downloadBackup',
        description:
          'A consistent copy of the embedded (PGlite) database: its data directory as a gzipped tar, taken between two transactions. `npm run backup` calls it while the server runs; `npm run restore` loads it into an empty DATA_DIR. On PostgreSQL it answers 409: pg_dump backs that up.',
        querystring: z.object({}).strict(),
        response: {
          200: {
            description: 'The gzipped tar of the data directory.',
            content: { 'application/gzip': { schema: binaryBody(2 ** 40) } },
          },
          ...errorResponses(400, 401, 403, 409),
        },
        responseHeaders: {
          200: {
            'Content-Disposition': {
              type: 'string',
              description: 'attachment; filename="lot-{yyyymmddThhmmss}.tar.gz"',
            },
            'Cache-Control': { type: 'string', description: 'no-store' },
          },
        },
      },
    },
    async (_request, reply) => {
      const dump = await backupDatabase(database);
      const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="lot-${stamp}.tar.gz"`)
        .header('cache-control', 'no-store')
        .send(dump);
    },
  );
};
