import type { AppContext } from '../../lib/context.ts';
import type { DrawBeaconMode } from '../../lib/draw-beacon.ts';
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

/** The beacon as GET /api/ready reports it (decision 062). */
export type BeaconReadiness = {
  mode: DrawBeaconMode;
  /** The pinned chain's hash (null with mode off). */
  chain: string | null;
  /** Whether the chain is drand quicknet, the one the verify page trusts without a pin. */
  quicknet: boolean;
  /** Whether the relays answer (false with mode off). */
  up: boolean;
  /** Seconds since the newest round verified was published; null before the first (or mode off). */
  lastRoundAgeSeconds: number | null;
};

/**
 * The beacon's state, reported beside readiness but never refusing it: every process of a site
 * reaches the relays through the same network, so taking them all out of the balancer would stop
 * payouts and transfers too, for want of new games only. Monitoring alerts on it (GET /metrics).
 */
export function beaconReadiness(ctx: AppContext): BeaconReadiness {
  const status = ctx.beacon.status();
  const off = status.mode === 'off';
  return {
    mode: status.mode,
    chain: off ? null : status.chainHash,
    quicknet: !off && status.quicknet,
    up: status.up,
    lastRoundAgeSeconds:
      status.lastRound === null ? null : Math.max(0, Math.round((ctx.clock() - status.lastRound.at) / 1000)),
  };
}
