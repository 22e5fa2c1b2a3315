import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import pino from 'pino';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from './db/client.ts';
import { authPlugin } from './plugins/auth.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { securityPlugin } from './plugins/security.ts';
import { webPlugin } from './plugins/web.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { balanceRoutes } from './modules/balance/balance.routes.ts';
import { transactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { winnersRoutes } from './modules/winners/winners.routes.ts';
import { salesHistoryRoutes } from './modules/sales-history/sales-history.routes.ts';
import { displayRoutes, gamesRoutes, verifyRoutes } from './modules/games/games.routes.ts';
import { randomnessRoutes } from './modules/games/randomness.routes.ts';
import { logRoutes } from './modules/log/log.routes.ts';
import { openGameLog } from './modules/log/log.service.ts';
import { gameLogSigner } from './lib/game-log-signer.ts';
import { gameProof } from './modules/games/game-view.ts';
import { expirySweep } from './modules/claims/claims.sweep.ts';
import { checkpointJob, type CheckpointSchedule } from './modules/audit/checkpoint.ts';
import { DisplayStreams, withoutTicket } from './lib/display-streams.ts';
import { DrawBeacon, type DrawBeaconOptions } from './lib/draw-beacon.ts';
import { runWithApp } from './lib/jobs.ts';
import { jwtTokens } from './lib/tokens.ts';
import { GAMES_CHANNEL, GameEvents } from './lib/game-events.ts';
import { CallerLookup, SESSIONS_CHANNEL, USERS_CHANNEL } from './lib/caller-lookup.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { gameMemory, withCaller, type AppContext, type Context } from './lib/context.ts';
import { noWitnessRounds } from './lib/witness-client.ts';
import { nodeDrawCrypto } from './lib/draw-crypto.ts';
import { PgListener } from './lib/listener.ts';
import { checkTotpKey } from './lib/key-canaries.ts';
import { openSeedBox } from './lib/seed-box.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { claimsRoutes } from './modules/claims/claims.routes.ts';
import { shiftsRoutes } from './modules/shifts/shifts.routes.ts';
import { publicUrlRoutes } from './modules/public-url/public-url.routes.ts';
import { LOGO_MAX_BYTES } from '@lot/domain/schemas/users';
import { defaultLogOrigin, type TrustProxy, type WitnessConfig } from './config.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyInstance {
    /**
     * The process's collaborators every service is handed (lib/context.ts): the one handle to the
     * database, the seeds, the beacon, the token signer and the display streams (decision 070).
     */
    context: AppContext;
    /**
     * Set by main.ts when a signal tells the process to stop: while `draining`, GET /api/health
     * answers 503 "stopping" (every other call is served) so that the balancer takes the process out
     * before its listener closes (STOP_DRAIN_MS, decision 068).
     */
    stopping: { draining: boolean };
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyRequest {
    /** The app's context with this request's caller (null before authentication). */
    ctx: Context;
  }
}

export type AppOptions = {
  database: Database;
  jwtSecret: string;
  /**
   * TOTP_KEY: two-factor secrets are encrypted with it (decision 028). buildApp refuses to start
   * (KeyMismatch) when it cannot open the database's canary or secrets (decision 042).
   */
  totpKey: string;
  /**
   * SEED_KEY: the games' secret seeds are sealed with it (decision 034). buildApp refuses to start
   * (SeedKeyMismatch) when it is not the key the database's seeds were sealed with.
   */
  seedKey: string;
  /**
   * LOG_KEY: the game log's checkpoints are signed with the Ed25519 key derived from it (decision
   * 081). buildApp refuses to start (KeyMismatch) when the database's log was signed with another.
   */
  logKey: string;
  /** DRAW_WITNESSES and DRAW_WITNESS_QUORUM (decision 080); unset: freezes are not witnessed. */
  witnesses?: { list: WitnessConfig[]; quorum: number };
  /** LOG_ORIGIN: the game log's origin line; default `localhost/games` (main.ts passes the configured one). */
  logOrigin?: string;
  /**
   * The app's clock, its context's (decision 069): every time a service, a route, the caller cache
   * or the beacon reads. The machine's by default; tests move it or skew it.
   */
  clock?: Clock;
  /** DRAW_BEACON, DRAW_BEACON_URL, DRAW_BEACON_CHAIN (decision 033); unset: every game is LOT-DRAW-1. */
  beacon?: Omit<DrawBeaconOptions, 'clock' | 'log'>;
  logLevel?: string;
  /** Where the built web app lives; tests leave it unset. */
  webRoot?: string;
  serveWeb?: boolean;
  /** Who may read GET /metrics: addresses and CIDR ranges (METRICS_ALLOW); loopback by default. */
  metricsAllow?: string[];
  /** Fastify's trustProxy (TRUST_PROXY): off by default, so X-Forwarded-For is not believed. */
  trustProxy?: TrustProxy;
  /** PUBLIC_URL: the base of every public link; unset, the address each request came in on. */
  publicUrl?: string;
  /** The server's scheduled audit checkpoints (decision 045): main.ts sets them, tests leave them out. */
  checkpoints?: CheckpointSchedule;
};

/** Fastify reads a hop count as "trust the nearest n proxies"; its types only take that as a function. */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** An incoming X-Request-Id is kept only when it is short and plain; anything else gets our own. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** One log line per request, when it completes, instead of Fastify's two (incoming, completed). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: withoutTicket(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

/** Assembles plugins then modules. main.ts and every API test start the app through here. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // First, before anything listens or logs: a database sealed with another key is refused, and
  // any seed still in the clear is sealed.
  const seeds = await openSeedBox(options.database.db, options.seedKey);
  // The same for TOTP_KEY (decision 042): a key that cannot open the two-factor secrets stops it
  // here, instead of answering 500 to every right code.
  await checkTotpKey(options.database.db, options.totpKey);
  // And the game log's key (decision 081): a log signed with another key is never continued.
  const gameLog = gameLogSigner(options.logKey, options.logOrigin ?? defaultLogOrigin(undefined));
  await openGameLog(options.database.db, gameLog);
  const app = Fastify({
    // Written in the background (a write in flight gathers the lines logged meanwhile), not one
    // blocking write per line; pino flushes what is left when the process exits.
    loggerInstance: pino(
      { level: options.logLevel ?? 'info' },
      pino.destination({ dest: 1, sync: false, minLength: 0 }),
    ) as FastifyBaseLogger,
    // Every log line of a request carries its id, as do the answer's header and error body.
    logController: new OneLinePerRequest({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 1024 * 1024,
    // A stopping process (SIGTERM) serves what still reaches it — a connection accepted as the
    // listener closed — instead of a 503 "closing": behind a balancer that request has nowhere
    // else to go (docs/deploy.md, rolling restarts). main.ts exits after 5 s whatever remains.
    return503OnClosing: false,
    // Ids in paths are numbers; anything else is a 400 from the schema, not a crash.
    routerOptions: { maxParamLength: 200 },
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: trustProxyOption(options.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();

  const clock = options.clock ?? systemClock;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Changes of games reach every process's customer displays (decision 014). Streams end before
  // the server waits for requests in flight, so close never hangs on an open display.
  // On PostgreSQL one LISTEN connection per process hears changes of games, users and sessions.
  const listener = options.database.newClient
    ? new PgListener(options.database.newClient, [GAMES_CHANNEL, USERS_CHANNEL, SESSIONS_CHANNEL], app.log)
    : undefined;
  const gameEvents = new GameEvents(options.database, listener, app.log);
  const callers = new CallerLookup(options.database.db, listener, clock);
  await listener?.start();
  const drawBeacon = new DrawBeacon({
    ...(options.beacon ?? { mode: 'off', urls: [], chainHash: '' }),
    clock,
    log: app.log,
  });
  // A stream reads its game's public view through the context (built below, before any request).
  const displays = new DisplayStreams((code) => gameProof(context, code), gameEvents, app.log, options.jwtSecret);
  app.addHook('preClose', (done) => {
    displays.closeAll();
    done();
  });
  app.addHook('onClose', async () => {
    gameEvents.close();
    await listener?.close();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Server time of every response, for benchmarks and browser dev tools alike.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('Server-Timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
    done(null, payload);
  });

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, {
    allow: options.metricsAllow ?? ['127.0.0.1', '::1'],
    pool: options.database.pool,
    db: options.database.db,
    clock,
    beacon: () => drawBeacon.status(),
    ...(listener && { listening: () => listener.live }),
  });
  // The token signer needs @fastify/jwt, which the auth plugin registers.
  await app.register(authPlugin, { secret: options.jwtSecret, callers });
  const context: AppContext = {
    db: options.database.db,
    clock,
    log: app.log,
    seeds,
    beacon: drawBeacon,
    drawCrypto: nodeDrawCrypto,
    gameLog,
    witnesses: { ...(options.witnesses ?? { list: [], quorum: 0 }), rounds: noWitnessRounds() },
    events: {
      gameChanged: (code) => gameEvents.publish(code),
      // This app's own cache forgets at once; other processes hear the database's notification.
      callerChanged: (id) => callers.changed(id),
      sessionsChanged: (ids) => {
        for (const id of ids) callers.sessionChanged(id);
      },
    },
    metrics: app.metrics,
    config: { totpKey: options.totpKey },
    tokens: jwtTokens(app.jwt, options.database.db),
    displays,
    games: gameMemory(),
  };
  app.decorate('context', context);
  app.decorate('stopping', { draining: false });
  app.decorateRequest('ctx', {
    getter(this: FastifyRequest) {
      return withCaller(context, this.caller);
    },
  });
  await app.register(securityPlugin, { publicUrl: options.publicUrl });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 20, fieldSize: 10_000, parts: 21 },
  });
  await app.register(docsPlugin, { publicUrl: options.publicUrl });

  await app.register(healthRoutes);
  await app.register(publicUrlRoutes, { publicUrl: options.publicUrl });
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(balanceRoutes);
  await app.register(transactionsRoutes);
  await app.register(auditRoutes);
  await app.register(winnersRoutes);
  await app.register(salesHistoryRoutes);
  await app.register(gamesRoutes);
  await app.register(verifyRoutes);
  await app.register(displayRoutes);
  await app.register(randomnessRoutes);
  await app.register(logRoutes);
  await app.register(reportsRoutes);
  await app.register(searchRoutes);
  await app.register(notificationsRoutes);
  await app.register(adminRoutes, { dump: options.database.dump });
  await app.register(claimsRoutes);
  await app.register(shiftsRoutes);

  if (options.serveWeb !== false) await app.register(webPlugin, { root: options.webRoot });

  // Every background job, started when the app is ready and stopped when it closes (decision 070).
  runWithApp(app, [
    drawBeacon.job(),
    expirySweep(context),
    ...(options.checkpoints ? [checkpointJob(context, options.checkpoints)] : []),
  ]);
  return app;
}
