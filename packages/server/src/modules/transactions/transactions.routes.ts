import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import { listTransactionsQuerySchema, transactionSchema } from '@lot/domain/schemas/balance';
import { listTransactions } from './transactions.service.ts';

export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/transactions',
    {
      schema: {
        tags: ['transactions'],
        querystring: listTransactionsQuerySchema,
        response: { 200: z.array(transactionSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const { items, total, totalAmount } = await listTransactions(app.db, request.caller, request.query);
      // The volume of the whole filtered set (the admin dashboard's Transaction Volume).
      reply.header('X-Total-Count', String(total)).header('X-Total-Amount', totalAmount);
      return items;
    },
  );
};
