import { expireDue } from './claims.repository.ts';
import type { AppContext } from '../../lib/context.ts';
import { periodic, type Job } from '../../lib/jobs.ts';

/** How often the server process expires unpaid claims past their time (reads derive it meanwhile). */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Expires due claims every minute while the server runs (decision 038): one of the app's
 * background jobs (lib/jobs.ts), started and stopped with it by `buildApp`. A sweep that fails (the
 * database away for a moment) is logged and tried next time.
 */
export function expirySweep(ctx: AppContext): Job {
  return periodic('claim expiry sweep', EXPIRY_SWEEP_MS, () => expireDue(ctx.db), ctx.log);
}
