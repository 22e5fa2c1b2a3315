import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { latestCheckpoint } from '../lib/audit.ts';
import type { BeaconStatus } from '../lib/draw-beacon.ts';
import { logFork } from '../lib/game-log.ts';
import type { Db } from '../db/client.ts';
import type { Metrics } from '../lib/metrics.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyInstance {
    metrics: Metrics;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyContextConfig {
    /** The route label of a route that stands for many (every file of the web app: "static"). */
    metricsRoute?: string;
  }
}

export type MetricsOptions = {
  /** Addresses and CIDR ranges that may read GET /metrics (config.ts checked them). */
  allow: string[];
  /** node-postgres's pool, on PostgreSQL: its connections are reported. */
  pool?: pg.Pool;
  /** The database, whose latest audit checkpoint's age is reported. */
  db: Db;
  /** The app's clock (unix ms), which ages are measured by. */
  clock: () => number;
  /** The public randomness beacon's state (lib/draw-beacon.ts). */
  beacon: () => BeaconStatus;
  /** PostgreSQL: whether this process's LISTEN connection hears notifications now. */
  listening?: () => boolean;
};

function blockListOf(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The socket's own address (never X-Forwarded-For), an IPv4 one also when it arrives IPv4-mapped. */
function peerAllowed(list: BlockList, request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
  if (mapped) return list.check(mapped, 'ipv4');
  const family = isIP(peer);
  return family !== 0 && list.check(peer, family === 6 ? 'ipv6' : 'ipv4');
}

/** Seconds from `at` (unix ms) to now; +Inf when there is none yet, so an alert on age fires. */
const ageSeconds = (clock: () => number, at: number | undefined): number =>
  at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, (clock() - at) / 1000);

/** The beacon's gauges and the audit checkpoint's age (decision 062). */
function metricsOfState(register: Registry, options: MetricsOptions): void {
  const { beacon, clock, db } = options;
  if (beacon().mode !== 'off') {
    new Gauge({
      name: 'lot_beacon_up',
      help: 'Public randomness beacon (DRAW_BEACON): 1 while its relays answer, 0 while they cannot be reached',
      labelNames: ['mode', 'chain'] as const,
      registers: [register],
      collect() {
        const status = beacon();
        this.set({ mode: status.mode, chain: status.chainHash }, status.up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'lot_beacon_last_round_age_seconds',
      help: 'Seconds since the time of the newest beacon round verified (+Inf before the first); the heartbeat fetches one every 30 s',
      registers: [register],
      collect() {
        this.set(ageSeconds(clock, beacon().lastRound?.at));
      },
    });
  }
  new Gauge({
    name: 'lot_game_log_forked',
    help: 'The alarm of decision 080: 1 once a witness refused the game log (every freeze is refused until a new LOG_ORIGIN), else 0',
    registers: [register],
    async collect() {
      this.set((await logFork(db)) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'lot_audit_checkpoint_age_seconds',
    help: 'Seconds since the latest signed audit checkpoint was made, by any process (+Inf before the first)',
    registers: [register],
    async collect() {
      const latest = await latestCheckpoint(db);
      this.set(ageSeconds(clock, latest ? Date.parse(latest.madeAt) : undefined));
    },
  });
}

/**
 * Prometheus metrics on GET /metrics, for the addresses in METRICS_ALLOW only; any other caller
 * gets the same 404 as a path that does not exist. One registry per app: tests build several apps
 * in one process, and prom-client's global registry would refuse the second set of names.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, options: MetricsOptions) => {
  const register = new Registry();
  collectDefaultMetrics({ register });

  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({
    name: 'lot_http_requests_total',
    help: 'HTTP requests by method, route pattern and status class',
    labelNames,
    registers: [register],
  });
  const durations = new Histogram({
    name: 'lot_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status class',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern (/api/users/:id), never the raw URL: one series per route, whatever ids arrive;
    // the web app's files, each a route of its own, are one series "static".
    const labels = {
      method: request.method,
      route: request.routeOptions.config.metricsRoute ?? request.routeOptions.url ?? 'unmatched',
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });

  const moneyCalls = new Counter({
    name: 'lot_money_operations_total',
    help: 'Money calls (topup, transfer, decrease, take_back) by outcome: ok, refused, replayed, error',
    labelNames: ['kind', 'outcome'] as const,
    registers: [register],
  });
  const games = new Counter({
    name: 'lot_games_total',
    help: 'Games ended, by outcome: settled, voided (after a draw), discarded (before one)',
    labelNames: ['outcome'] as const,
    registers: [register],
  });
  const signins = new Counter({
    name: 'lot_signins_total',
    help: 'Sign-in attempts by outcome: ok, code_needed (password right, two-factor code to come), failed (bad credentials or code), refused (inactive), throttled',
    labelNames: ['outcome'] as const,
    registers: [register],
  });

  const { pool } = options;
  new Gauge({
    name: 'lot_db_pool_connections',
    help: 'Database connections: max (the pool size), total open, idle, and requests waiting for one; the embedded database has one connection (max and total 1)',
    labelNames: ['state'] as const,
    registers: [register],
    collect() {
      if (!pool) {
        this.set({ state: 'max' }, 1);
        this.set({ state: 'total' }, 1);
        return;
      }
      this.set({ state: 'max' }, pool.options.max);
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  const { listening } = options;
  if (listening) {
    new Gauge({
      name: 'lot_db_listen_up',
      help: "1 while this process's LISTEN connection hears PostgreSQL's notifications (live displays, sign-outs), 0 while it reconnects",
      registers: [register],
      collect() {
        this.set(listening() ? 1 : 0);
      },
    });
  }
  metricsOfState(register, options);

  const countMoney: Metrics['countMoney'] = async (kind, call) => {
    try {
      const outcome = await call;
      moneyCalls.inc({ kind, outcome: outcome.replayed ? 'replayed' : 'ok' });
      return outcome;
    } catch (error) {
      moneyCalls.inc({ kind, outcome: error instanceof AppError && error.status < 500 ? 'refused' : 'error' });
      throw error;
    }
  };
  app.decorate('metrics', { moneyCalls, games, signins, countMoney });

  const allowed = blockListOf(options.allow);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!peerAllowed(allowed, request)) throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
    return reply
      .type(register.contentType)
      .header('cache-control', 'no-store')
      .send(await register.metrics());
  });
});
