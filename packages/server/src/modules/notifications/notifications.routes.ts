import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationsQuerySchema, notificationsSchema } from '@lot/domain/schemas/notifications';
import { errorResponses } from '../../plugins/errors.ts';
import { listNotifications } from './notifications.service.ts';

/** The header's bell (docs/product/screens.md#header, decision 022). */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        operationId: 'listNotifications',
        description:
          "The last 7 days' events that concern the caller, newest first, at most 20: money received (top-ups and transfers), money taken back from the caller, games voided by someone else among the games the caller may read, failed sign-ins on the caller's account still on record. What is unread is the browser's business (it keeps the time it last looked).",
        querystring: notificationsQuerySchema,
        response: { 200: notificationsSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => listNotifications(request.ctx),
  );
};
