import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  closeShiftInputSchema,
  currentShiftSchema,
  exportShiftsQuerySchema,
  listShiftsQuerySchema,
  openShiftInputSchema,
  shiftIdParamsSchema,
  shiftListSchema,
  shiftMovementInputSchema,
  shiftMovementSchema,
  shiftReportSchema,
  shiftSchema,
  shiftSummarySchema,
} from '@lot/domain/schemas/shifts';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { sendPage } from '../../lib/page.ts';
import { envelopeSunsetHeaders, exportHeaders, exportResponse, replayedHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import {
  closeShift,
  currentShift,
  listShifts,
  openShift,
  recordMovement,
  SHIFT_EXPORT_COLUMNS,
  shiftExportPages,
  shiftReport,
  shiftSummary,
} from './shifts.service.ts';

/** Shop shifts and their X/Z reports (docs/product/shifts.md, decision 039). */
export const shiftsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/api/shifts',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'openShift',
        description: 'The shop opens its shift with the cash put in the drawer (409 SHIFT_OPEN when one is open).',
        body: openShiftInputSchema,
        response: { 201: shiftSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await openShift(request.ctx, request.body)),
  );

  app.get(
    '/api/shifts/current',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'getCurrentShift',
        description: "The shop's open shift and its X report (as of now), or nulls.",
        response: { 200: currentShiftSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => currentShift(request.ctx),
  );

  app.get(
    '/api/shifts/summary',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'getShiftSummary',
        description:
          "The upline's dashboard card: open shifts (and those open since before today's UTC midnight), today's closes, short closes and their variance.",
        response: { 200: shiftSummarySchema, ...errorResponses(401, 403) },
      },
    },
    (request) => shiftSummary(request.ctx),
  );

  app.get(
    '/api/shifts',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'listShifts',
        description:
          "Shifts in the caller's reach (a shop its own), newest opened first, a page at a time. With `Prefer: list=array`, the page as an array; otherwise the deprecated `{ items, total, … }` until its sunset (decision 072).",
        querystring: listShiftsQuerySchema,
        response: { 200: z.union([z.array(shiftSchema), shiftListSchema]), ...errorResponses(400, 401) },
        responseHeaders: { 200: envelopeSunsetHeaders },
      },
    },
    async (request, reply) => {
      const list = await listShifts(request.ctx, request.query);
      return sendPage(reply, list, { envelope: list });
    },
  );

  app.get(
    '/api/shifts/export',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'exportShifts',
        description: 'The filtered shifts as a CSV or Excel file, every row, newest opened first.',
        querystring: exportShiftsQuerySchema,
        response: { ...exportResponse, ...errorResponses(400, 401) },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      return sendExport(reply, format, tz ?? 'UTC', {
        fileName: exportFileName('shifts', query, tz, request.ctx.clock()),
        columns: SHIFT_EXPORT_COLUMNS,
        pages: shiftExportPages(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/shifts/:id/report',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'getShiftReport',
        description: 'The X report of an open shift (as of now) or the Z report a closed one stored at its close.',
        params: shiftIdParamsSchema,
        response: { 200: shiftReportSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => shiftReport(request.ctx, request.params.id),
  );

  app.post(
    '/api/shifts/:id/movements',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'recordShiftMovement',
        description:
          'The shop records cash moved in or out of its open shift’s drawer: a pickup or a drop (who took it and why), paid in or paid out (why). It changes the expected cash. 409 SHIFT_CLOSED once closed.',
        params: shiftIdParamsSchema,
        headers: z.object({
          'idempotency-key': z.string().optional().describe('Replays of the same request with this key record once'),
        }),
        body: shiftMovementInputSchema,
        response: { 201: shiftMovementSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
        responseHeaders: { 201: replayedHeader },
      },
    },
    async (request, reply) => {
      const outcome = await recordMovement(
        request.ctx,
        request.params.id,
        request.body,
        request.headers['idempotency-key'],
      );
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.status(201).send(outcome.result);
    },
  );

  app.post(
    '/api/shifts/:id/close',
    {
      schema: {
        tags: ['shifts'],
        operationId: 'closeShift',
        description:
          'The shop closes its shift with the cash counted: the next Z number, the Z report stored; a difference needs a reason. 409 with a game in progress or when already closed.',
        params: shiftIdParamsSchema,
        body: closeShiftInputSchema,
        response: { 200: shiftReportSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => closeShift(request.ctx, request.params.id, request.body),
  );
};
