import type { AppContext } from '../../lib/context.ts';
import { pingDatabase } from './health.repository.ts';

/** How long readiness waits for the database before it says not ready. */
export const READY_TIMEOUT_MS = 1000;

/** How long a database that answered counts as up without asking it again. */
export const HEALTH_FRESH_MS = 1000;

/**
 * The health check of one app: the database is asked at most once a second while it answers, and
 * checks that arrive while one is in flight share it: a load balancer polling, or a flood of
 * requests, costs the database next to nothing. A failure is never remembered: the next check
 * asks again (it throws).
 */
export function healthCheck(): (ctx: AppContext) => Promise<void> {
  let answeredAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<unknown> | undefined;
  return async (ctx) => {
    if (performance.now() - answeredAt < HEALTH_FRESH_MS) return;
    await (inFlight ??= pingDatabase(ctx.db).finally(() => {
      inFlight = undefined;
    }));
    answeredAt = performance.now();
  };
}

/**
 * Readiness: the database must answer a query within READY_TIMEOUT_MS (a hung pool counts as down,
 * not as a slow yes). Unlike health it always asks; it throws when there is no answer in time.
 */
export async function databaseReady(ctx: AppContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([pingDatabase(ctx.db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
