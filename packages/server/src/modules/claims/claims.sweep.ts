import type { FastifyInstance } from 'fastify';
import { expireDue } from './claims.repository.ts';
import type { AppContext } from '../../lib/context.ts';

/** How often the server process expires unpaid claims past their time (reads derive it meanwhile). */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Expires due claims every minute while the server runs (decision 038); stopped when the app
 * closes. A sweep that fails (the database away for a moment) is logged and tried next time.
 */
export function startExpirySweep(app: FastifyInstance, ctx: AppContext): void {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = expireDue(ctx.db)
      .catch((error: unknown) => app.log.warn({ err: error }, 'claim expiry sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, EXPIRY_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
