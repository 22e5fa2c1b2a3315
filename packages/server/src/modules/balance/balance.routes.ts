import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { replayedHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import {
  balanceSchema,
  decreaseInputSchema,
  moneyResultSchema,
  takeBackInputSchema,
  topupInputSchema,
  transferInputSchema,
} from '@lot/domain/schemas/balance';
import { idSchema } from '@lot/domain/schemas/common';
import { decrease, getBalance, takeBack, topup, transfer } from './balance.service.ts';
import type { Idempotent } from '../../lib/idempotency.ts';

const errors = errorResponses(400, 401, 403, 404, 422);
const idempotencyHeaders = z.object({
  'idempotency-key': z.string().optional().describe('Replays of the same request with this key apply once'),
});
const moneyCall = { 200: moneyResultSchema, ...errors };

export const balanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  /** Replays answer the stored response and say so (the service counts every call for GET /metrics). */
  const answer = async <T>(
    reply: { header: (name: string, value: string) => unknown },
    call: Promise<Idempotent<T>>,
  ) => {
    const outcome = await call;
    if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
    return outcome.result;
  };

  app.get(
    '/api/balance',
    {
      schema: {
        tags: ['balance'],
        operationId: 'getOwnBalance',
        response: { 200: balanceSchema, ...errorResponses(401) },
      },
    },
    (request) => getBalance(request.ctx, request.caller.id),
  );

  app.get(
    '/api/balance/:userId',
    {
      schema: {
        tags: ['balance'],
        operationId: 'getBalance',
        params: z.strictObject({ userId: idSchema }),
        response: { 200: balanceSchema, ...errors },
      },
    },
    (request) => getBalance(request.ctx, request.params.userId),
  );

  app.post(
    '/api/balance/topup',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['balance'],
        operationId: 'topUpBalance',
        responseHeaders: { 200: replayedHeader },
        headers: idempotencyHeaders,
        body: topupInputSchema,
        response: moneyCall,
      },
    },
    async (request, reply) => answer(reply, topup(request.ctx, request.body, request.headers['idempotency-key'])),
  );

  app.post(
    '/api/balance/transfer',
    {
      schema: {
        tags: ['balance'],
        operationId: 'transferMoney',
        responseHeaders: { 200: replayedHeader },
        headers: idempotencyHeaders,
        body: transferInputSchema,
        response: moneyCall,
      },
    },
    async (request, reply) => answer(reply, transfer(request.ctx, request.body, request.headers['idempotency-key'])),
  );

  app.post(
    '/api/balance/decrease',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['balance'],
        operationId: 'decreaseBalance',
        responseHeaders: { 200: replayedHeader },
        headers: idempotencyHeaders,
        body: decreaseInputSchema,
        response: moneyCall,
      },
    },
    async (request, reply) => answer(reply, decrease(request.ctx, request.body, request.headers['idempotency-key'])),
  );

  app.post(
    '/api/balance/take-back',
    {
      preValidation: app.requireRole('admin', 'superagent', 'agent'),
      schema: {
        tags: ['balance'],
        operationId: 'takeBackMoney',
        responseHeaders: { 200: replayedHeader },
        description:
          "Takes money back from an account in the caller's scope into the caller's balance, with a reason; never more than the balance.",
        headers: idempotencyHeaders,
        body: takeBackInputSchema,
        response: moneyCall,
      },
    },
    async (request, reply) => answer(reply, takeBack(request.ctx, request.body, request.headers['idempotency-key'])),
  );
};
