import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

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
}
