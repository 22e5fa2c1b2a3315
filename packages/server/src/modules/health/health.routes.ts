import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { errorResponses } from '../../plugins/errors.ts';
import { beaconReadiness, databaseReady, healthCheck } from './health.service.ts';

export { HEALTH_FRESH_MS, READY_TIMEOUT_MS } from './health.service.ts';

export async function healthRoutes(app: FastifyInstance) {
  /** Shared by this app's checks (health.service.ts). */
  const ping = healthCheck();

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        security: [],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.enum(['unavailable', 'stopping']) }),
        },
      },
    },
    async (_request, reply) => {
      // A stopping process (STOP_DRAIN_MS): the balancer must stop choosing it before it closes.
      if (app.stopping.draining) return reply.status(503).send({ status: 'stopping' as const });
      try {
        await ping(app.context);
        return { status: 'ok' as const };
      } catch (error) {
        app.log.error({ err: error }, 'health check: database did not answer');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );

  /**
   * Readiness, for a load balancer or orchestrator deciding whether to send traffic
   * (`databaseReady`); a refusal has the error shape of every other failure. The answer also says
   * whether the public randomness beacon answers, which never makes a process unready
   * (`beaconReadiness`, decision 062). A process that is stopping (STOP_DRAIN_MS) is not ready.
   */
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        security: [],
        response: {
          200: z.object({
            status: z.literal('ready'),
            beacon: z.object({
              mode: z.enum(['required', 'auto', 'off']),
              chain: z.string().nullable(),
              quicknet: z.boolean(),
              up: z.boolean(),
              lastRoundAgeSeconds: z.number().nullable(),
            }),
          }),
          ...errorResponses(503),
        },
      },
    },
    async (request) => {
      // A stopping process is not ready either: an orchestrator must stop sending it calls.
      if (app.stopping.draining) throw new AppError('UNAVAILABLE', SERVER_MESSAGES.notReadyStopping);
      try {
        await databaseReady(app.context);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: database did not answer');
        throw new AppError('UNAVAILABLE', SERVER_MESSAGES.notReady);
      }
      return { status: 'ready' as const, beacon: beaconReadiness(app.context) };
    },
  );
}
