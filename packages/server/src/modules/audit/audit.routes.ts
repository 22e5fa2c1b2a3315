import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditCheckpointSchema,
  auditEntrySchema,
  auditExportQuerySchema,
  listAuditQuerySchema,
} from '@lot/domain/schemas/audit';
import { exportHeaders, exportResponse, totalCountHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { AUDIT_EXPORT_COLUMNS, auditCheckpoint, auditExportPages, listAudit } from './audit.service.ts';
import { sendPage } from '../../lib/page.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/audit',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEntries',
        responseHeaders: { 200: totalCountHeader },
        description:
          'The audit trail (decision 029), newest first: the admin reads every entry, a super agent or an agent those whose actor or target user is in its hierarchy. X-Total-Count holds the filtered count.',
        querystring: listAuditQuerySchema,
        response: { 200: z.array(auditEntrySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listAudit(request.ctx, request.query));
    },
  );

  app.get(
    '/api/audit/export',
    {
      schema: {
        tags: ['audit'],
        operationId: 'exportAuditEntries',
        description: 'The filtered audit entries as a CSV or Excel file, every row, newest first.',
        querystring: auditExportQuerySchema,
        response: { ...exportResponse, ...errorResponses(400, 401, 403) },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      const pages = auditExportPages(request.ctx, query);
      return sendExport(reply, format, tz ?? 'UTC', {
        fileName: exportFileName('audit', query, tz, request.ctx.clock()),
        columns: AUDIT_EXPORT_COLUMNS,
        pages,
      });
    },
  );

  app.get(
    '/api/audit/checkpoint',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        operationId: 'getAuditCheckpoint',
        tags: ['audit'],
        description:
          'The latest signed checkpoint of the audit chains (decision 045): its SHA-256 digest, when it was made, how many chains and rows it covers; null before the first.',
        response: { 200: auditCheckpointSchema.nullable(), ...errorResponses(401, 403) },
      },
    },
    (request) => auditCheckpoint(request.ctx),
  );
};
