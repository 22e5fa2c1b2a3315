import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@lot/domain/schemas/common';
import {
  BACKUP_KEY_PREFIX,
  backupKeySchema,
  createBackupKeySchema,
  createdBackupKeySchema,
  revokedBackupKeySchema,
} from '@lot/domain/schemas/backup';
import { binaryBody } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { takeBackup } from './backup.service.ts';
import { authenticateBackupKey, createBackupKey, listBackupKeys, revokeBackupKey } from './backup-keys.service.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyRequest {
    /** The backup key a call to GET /api/admin/backup was made with (decision 041), if any. */
    backupKey: { id: number; name: string } | null;
  }
}

/** The key of `Authorization: Bearer lotbk_…`, if the header holds one (anything else is a session token). */
function presentedBackupKey(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1]?.startsWith(BACKUP_KEY_PREFIX) ? match[1] : undefined;
}

/** Calls for running the system, the admin's only (decisions 027 and 041). */
export const adminRoutes: FastifyPluginAsyncZod<{ dump: (() => Promise<Blob>) | undefined }> = async (
  app,
  { dump },
) => {
  app.decorateRequest('backupKey', null);
  const adminOnly = { onRequest: app.authenticate, preValidation: app.requireRole('admin') };

  app.get(
    '/api/admin/backup',
    {
      // A backup key (and only here), else an admin's session.
      onRequest: async (request) => {
        const key = presentedBackupKey(request);
        if (key !== undefined) {
          request.backupKey = await authenticateBackupKey(app.context, key, request.ip);
          return;
        }
        await app.authenticate(request);
        await app.requireRole('admin')(request);
      },
      schema: {
        operationId: 'downloadBackup',
        tags: ['admin'],
        description:
          "A consistent copy of the embedded (PGlite) database: its data directory as a gzipped tar, taken between two transactions. `npm run backup` calls it while the server runs; `npm run restore` loads it into an empty DATA_DIR. On PostgreSQL it answers 409: pg_dump backs that up. Authorization: an admin's session token, or a backup key (`Authorization: Bearer lotbk_…`, decision 041), which no other call accepts. Every copy handed out is an audit row (`backup.downloaded`), and so is every key refused (`backup.key_refused`).",
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
    async (request, reply) => {
      const { copy, fileName } = await takeBackup(
        app.context,
        dump,
        request.backupKey ? { key: request.backupKey, address: request.ip } : { caller: request.caller },
      );
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(copy);
    },
  );

  app.get(
    '/api/admin/backup-keys',
    {
      ...adminOnly,
      schema: {
        operationId: 'listBackupKeys',
        tags: ['admin'],
        description: 'Every backup key: those still valid first, then the revoked, the newest first. Never a secret.',
        response: { 200: z.array(backupKeySchema), ...errorResponses(401, 403) },
      },
    },
    (request) => listBackupKeys(request.ctx),
  );

  app.post(
    '/api/admin/backup-keys',
    {
      ...adminOnly,
      schema: {
        operationId: 'createBackupKey',
        tags: ['admin'],
        description:
          'A new named backup key for `npm run backup` (decision 041). The answer holds its secret this once; the server keeps only a SHA-256 of it.',
        body: createBackupKeySchema,
        response: { 201: createdBackupKeySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await createBackupKey(request.ctx, request.body)),
  );

  app.delete(
    '/api/admin/backup-keys/:id',
    {
      ...adminOnly,
      schema: {
        operationId: 'revokeBackupKey',
        tags: ['admin'],
        description: 'Revokes a backup key: from now on it is refused (401). It stays listed, as revoked.',
        params: idParamsSchema,
        response: { 200: revokedBackupKeySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => revokeBackupKey(request.ctx, request.params.id),
  );
};
