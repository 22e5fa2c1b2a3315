import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { totalCountHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import { idParamsSchema, idSchema } from '@lot/domain/schemas/common';
import {
  effectiveWinnersSchema,
  listWinnersQuerySchema,
  winnerInputSchema,
  winnerSchema,
} from '@lot/domain/schemas/winners';
import {
  createWinner,
  deleteWinner,
  effectiveWinnersFor,
  listUserWinners,
  listWinners,
  updateWinner,
} from './winners.service.ts';
import { sendPage } from '../../lib/page.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

export const winnersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // Superagents and agents have no winner settings of their own and manage nobody's. Role checks
  // run before validation: a refused role is 403 whatever it sends (docs/product/roles-and-scope.md#refusals).
  app.addHook('preValidation', app.requireRole('admin', 'user'));

  app.get(
    '/api/winners',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['winners'],
        operationId: 'listWinners',
        responseHeaders: { 200: totalCountHeader },
        querystring: listWinnersQuerySchema,
        response: { 200: z.array(winnerSchema), ...errors },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listWinners(request.ctx, request.query));
    },
  );

  app.get(
    '/api/winners/user/:userId',
    {
      schema: {
        tags: ['winners'],
        operationId: 'listUserWinners',
        params: z.strictObject({ userId: idSchema }),
        response: { 200: z.array(winnerSchema), ...errors },
      },
    },
    (request) => listUserWinners(request.ctx, request.params.userId),
  );

  app.get(
    '/api/winners/effective',
    {
      schema: {
        tags: ['winners'],
        operationId: 'getEffectiveWinners',
        description:
          "The configuration the player's game uses: own active ones by position, else the active global ones.",
        querystring: z.strictObject({ userId: idSchema.optional() }),
        response: { 200: effectiveWinnersSchema, ...errors },
      },
    },
    (request) => effectiveWinnersFor(request.ctx, request.query.userId ?? request.caller.id),
  );

  app.post(
    '/api/winners',
    {
      schema: {
        tags: ['winners'],
        operationId: 'createWinner',
        body: winnerInputSchema,
        response: { 201: winnerSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createWinner(request.ctx, request.body)),
  );

  app.put(
    '/api/winners/:id',
    {
      schema: {
        tags: ['winners'],
        operationId: 'updateWinner',
        params: idParamsSchema,
        body: winnerInputSchema,
        response: { 200: winnerSchema, ...errors },
      },
    },
    (request) => updateWinner(request.ctx, request.params.id, request.body),
  );

  app.delete(
    '/api/winners/:id',
    {
      schema: {
        tags: ['winners'],
        operationId: 'deleteWinner',
        params: idParamsSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    (request) => deleteWinner(request.ctx, request.params.id),
  );
};
