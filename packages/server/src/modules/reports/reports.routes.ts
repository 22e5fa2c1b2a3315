import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '@lot/domain/schemas/common';
import {
  activityQuerySchema,
  activitySchema,
  dayCloseQuerySchema,
  dayCloseSchema,
  downlineExportQuerySchema,
  downlineQuerySchema,
  downlineSchema,
  statementExportQuerySchema,
  statementQuerySchema,
  statementSchema,
} from '@lot/domain/schemas/reports';
import { exportHeaders, exportResponse, totalCountHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { activity } from './activity.service.ts';
import { dayClose } from './reports.service.ts';
import { downline } from './downline.service.ts';
import { statement } from './statements.service.ts';
import { downlineExport, statementExport } from './reports.exports.ts';
import { sendExport } from '../../lib/export.ts';
import { sendPage } from '../../lib/page.ts';

/** Reports (docs/product/money.md#day-close, docs/product/money.md#statements). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/reports/day-close',
    {
      schema: {
        tags: ['reports'],
        operationId: 'getDayClose',
        description:
          "A shop's local day: games, every balance movement, opening and closing balance (opening + movements = closing). The day is in `tz` (default UTC); a day after today there is refused (400).",
        querystring: dayCloseQuerySchema,
        response: { 200: dayCloseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => dayClose(request.ctx, request.query),
  );

  app.get(
    '/api/statements/:userId',
    {
      schema: {
        tags: ['reports'],
        operationId: 'getStatement',
        responseHeaders: { 200: totalCountHeader },
        description:
          "An account's statement for whole days `from` to `to` in `tz` (default UTC): opening balance, every movement with the running balance, closing balance. Movements come a page at a time (`limit`, `offset`); X-Total-Count is their number.",
        params: z.strictObject({ userId: idSchema }),
        querystring: statementQuerySchema,
        response: { 200: statementSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const result = await statement(request.ctx, request.params.userId, request.query);
      // A statement is a document whose movements are the page: the body stays the document.
      return sendPage(reply, { items: result.movements, total: result.total }, { body: result });
    },
  );

  app.get(
    '/api/reports/downline',
    {
      schema: {
        tags: ['reports'],
        operationId: 'getDownlineReport',
        description:
          'One row per direct child of the caller (or of `parentId`, in scope), each with its whole subtree summed in: games, pool, prizes, commission, voids, top-ups, transfers and take-backs, for whole days `from` to `to` in `tz` (default UTC); and the totals.',
        querystring: downlineQuerySchema,
        response: { 200: downlineSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => downline(request.ctx, request.query),
  );

  app.get(
    '/api/reports/activity',
    {
      schema: {
        tags: ['reports'],
        operationId: 'getActivityReport',
        description:
          "Settled games per local day in `tz` (default UTC), days without games as zeros: the last `days` days up to today, or whole days `from` to `to` (at most 366). Scoped as the sales history is. With the totals of the period just before it, the top-ups into the caller's scope and the accounts created in it, for the dashboards' changes.",
        querystring: activityQuerySchema,
        response: { 200: activitySchema, ...errorResponses(400, 401) },
      },
    },
    (request) => activity(request.ctx, request.query),
  );

  app.get(
    '/api/reports/downline/export',
    {
      schema: {
        tags: ['reports'],
        operationId: 'exportDownlineReport',
        description:
          'The downline report (its rows and totals) as a CSV or Excel file (docs/product/reports.md#exports).',
        querystring: downlineExportQuerySchema,
        response: { ...exportResponse, ...errorResponses(400, 401, 403, 404) },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const report = await downline(request.ctx, query);
      return sendExport(reply, format, report.timeZone, downlineExport(report, query.from, query.to));
    },
  );

  app.get(
    '/api/statements/:userId/export',
    {
      schema: {
        tags: ['reports'],
        operationId: 'exportStatement',
        description:
          "An account's statement for the period (opening balance, every movement with the running balance, closing balance) as a CSV or Excel file (docs/product/reports.md#exports).",
        params: z.strictObject({ userId: idSchema }),
        querystring: statementExportQuerySchema,
        response: { ...exportResponse, ...errorResponses(400, 401, 404) },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const source = await statementExport(request.ctx, request.params.userId, query);
      return sendExport(reply, format, query.tz ?? 'UTC', source);
    },
  );
};
