import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { errorResponses } from '../../plugins/errors.ts';

/** How long readiness waits for the database before it says not ready. */
export const READY_TIMEOUT_MS = 1000;

/** How long a database that answered counts as up without asking it again. */
export const HEALTH_FRESH_MS = 1000;

export async function healthRoutes(app: FastifyInstance) {
  /**
   * The database is asked at most once a second while it answers, and checks that arrive while
   * one is in flight share it: a load balancer polling, or a flood of requests, costs the database
   * next to nothing. A failure is never remembered: the next check asks again.
   */
  let answeredAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<unknown> | undefined;
  const ping = async () => {
    if (performance.now() - answeredAt < HEALTH_FRESH_MS) return;
    await (inFlight ??= app.db.execute(sql`SELECT 1`).finally(() => {
      inFlight = undefined;
    }));
    answeredAt = performance.now();
  };

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        security: [],
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable') }) },
      },
    },
    async (_request, reply) => {
      try {
        await ping();
        return { status: 'ok' as const };
      } catch (error) {
        app.log.error({ err: error }, 'health check: database did not answer');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );

  /**
   * Readiness, for a load balancer or orchestrator deciding whether to send traffic: the database
   * must answer a query within READY_TIMEOUT_MS (a hung pool counts as down, not as a slow yes).
   * Unlike health it always asks, and a refusal has the error shape of every other failure.
   */
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        security: [],
        response: { 200: z.object({ status: z.literal('ready') }), ...errorResponses(503) },
      },
    },
    async (request) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      });
      try {
        await Promise.race([app.db.execute(sql`SELECT 1`), timeout]);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: database did not answer');
        throw new AppError('UNAVAILABLE', MESSAGES.notReady);
      } finally {
        clearTimeout(timer);
      }
      return { status: 'ready' as const };
    },
  );
}
