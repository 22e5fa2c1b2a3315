import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dayCloseQuerySchema, dayCloseSchema } from '@lot/domain/schemas/reports';
import { errorResponses } from '../../plugins/errors.ts';
import { dayClose } from './reports.service.ts';

/** Reports (docs/product/money.md#day-close). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/reports/day-close',
    {
      schema: {
        tags: ['reports'],
        description:
          "A shop's local day: games, every balance movement, opening and closing balance (opening + movements = closing). The day is in `tz` (default UTC).",
        querystring: dayCloseQuerySchema,
        response: { 200: dayCloseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => dayClose(app.db, request.caller, request.query),
  );
};
