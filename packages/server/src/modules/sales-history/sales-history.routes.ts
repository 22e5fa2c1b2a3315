import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import {
  exportHeaders,
  exportResponse,
  moneyHeader,
  type ResponseHeader,
  totalCountHeader,
} from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import { idParamsSchema } from '@lot/domain/schemas/common';
import {
  adminSalesQuerySchema,
  saleDetailSchema,
  saleInputSchema,
  saleSchema,
  salesQuerySchema,
} from '@lot/domain/schemas/sales-history';
import { exportFields } from '@lot/domain/schemas/exports';
import { exportFileName, sendExport } from '../../lib/export.ts';
import {
  adminScope,
  filterSales,
  getSale,
  listSales,
  recordSale,
  SALE_EXPORT_COLUMNS,
  saleExportPages,
  type SalesPage,
} from './sales-history.service.ts';
import { sendPage } from '../../lib/page.ts';

const errors = errorResponses(400, 401, 403, 404, 422);
const listResponse = { 200: z.array(saleSchema), ...errors };
const salesListHeaders: Record<number, Record<string, ResponseHeader>> = {
  200: { ...totalCountHeader, 'X-Total-Commission': moneyHeader("The whole filtered set's commission.") },
};

/** Lists answer the one list shape (decision 072), with the whole filtered set's commission. */
function send(reply: FastifyReply, page: SalesPage) {
  return sendPage(reply, page, { totals: { 'X-Total-Commission': page.totalCommission } });
}

/**
 * The end of `POST /api/sales-history` (decision 053): deprecated since 2026-11-26 (RFC 9745's
 * `Deprecation`, a structured date), gone after 2027-05-31 (RFC 8594's `Sunset`, an HTTP date).
 */
const RECORD_SALE_SUNSET = {
  deprecation: '@1795651200',
  sunset: 'Mon, 31 May 2027 00:00:00 GMT',
} as const;

const sunsetHeaders: Record<string, ResponseHeader> = {
  Deprecation: {
    type: 'string',
    description: 'Since when this path is deprecated (RFC 9745): `@1795651200`, 2026-11-26.',
  },
  Sunset: {
    type: 'string',
    description: 'When this path goes (RFC 8594): Mon, 31 May 2027 00:00:00 GMT. Play through /api/games.',
  },
};

export const salesHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/api/sales-history',
    {
      // Every answer of the compatibility path announces its end (decision 053), refusals too.
      onSend: async (_request, reply) => {
        reply.header('Deprecation', RECORD_SALE_SUNSET.deprecation);
        reply.header('Sunset', RECORD_SALE_SUNSET.sunset);
      },
      preValidation: app.requireRole('user'),
      schema: {
        tags: ['sales-history'],
        operationId: 'recordSale',
        description:
          'Compatibility path: answers the record of a finished server-run game that the body describes exactly (games are played through /api/games). Changes nothing.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: saleInputSchema,
        responseHeaders: { 200: sunsetHeaders },
        response: { 200: saleDetailSchema, ...errors },
      },
    },
    (request) => recordSale(request.ctx, request.body),
  );

  app.get(
    '/api/sales-history/filter',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['sales-history'],
        operationId: 'filterSales',
        responseHeaders: salesListHeaders,
        querystring: adminSalesQuerySchema,
        response: listResponse,
      },
    },
    async (request, reply) => send(reply, await filterSales(request.ctx, request.query)),
  );

  app.get(
    '/api/sales-history/filter/export',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['sales-history'],
        operationId: 'exportFilteredSales',
        description:
          "The admin's filtered sales history as a CSV or Excel file, every row (docs/product/reports.md#exports).",
        querystring: adminSalesQuerySchema.omit({ limit: true, offset: true }).extend(exportFields),
        response: { ...exportResponse, ...errors },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      const { scope, filter } = adminScope(query);
      const pages = await saleExportPages(request.ctx, scope, filter);
      const fileName = exportFileName('sales-history', query, tz, request.ctx.clock());
      return sendExport(reply, format, tz ?? 'UTC', { fileName, columns: SALE_EXPORT_COLUMNS, pages });
    },
  );

  for (const role of ['superagent', 'agent', 'user'] as const) {
    const Role = `${role.charAt(0).toUpperCase()}${role.slice(1)}`;
    app.get(
      `/api/sales-history/${role}/:id/export`,
      {
        schema: {
          tags: ['sales-history'],
          operationId: `export${Role}Sales`,
          description: `The ${role}'s sales history as a CSV or Excel file, every row (docs/product/reports.md#exports).`,
          params: idParamsSchema,
          querystring: salesQuerySchema.omit({ limit: true, offset: true }).extend(exportFields),
          response: { ...exportResponse, ...errors },
          responseHeaders: exportHeaders,
        },
      },
      async (request, reply) => {
        const { format, tz, ...query } = request.query;
        const pages = await saleExportPages(request.ctx, { role, id: request.params.id }, query);
        const fileName = exportFileName(`sales-history-${role}-${request.params.id}`, query, tz, request.ctx.clock());
        return sendExport(reply, format, tz ?? 'UTC', { fileName, columns: SALE_EXPORT_COLUMNS, pages });
      },
    );

    app.get(
      `/api/sales-history/${role}/:id`,
      {
        schema: {
          tags: ['sales-history'],
          operationId: `list${Role}Sales`,
          responseHeaders: salesListHeaders,
          params: idParamsSchema,
          querystring: salesQuerySchema,
          response: listResponse,
        },
      },
      async (request, reply) =>
        send(reply, await listSales(request.ctx, { role, id: request.params.id }, request.query)),
    );
  }

  app.get(
    '/api/sales-history/:id',
    {
      schema: {
        tags: ['sales-history'],
        operationId: 'getSale',
        params: idParamsSchema,
        response: { 200: saleDetailSchema, ...errors },
      },
    },
    (request) => getSale(request.ctx, request.params.id),
  );
};
