import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { removeServerFile, writeServerFile } from './db/backup.ts';
import type { Database } from './db/client.ts';
import { openConfiguredDatabase } from './db/open-from-config.ts';
import { ensureAdmin } from './cli/seed.ts';
import { DataDirBusy } from './db/data-dir-lock.ts';
import { KeyMismatch, keyRefusal, type SealingKey } from './lib/key-canaries.ts';
import { keepJwtSecret, keyPlace, resolveKeys } from './secrets.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Stops the process with one plain line per problem (a bad key, a data directory in use). */
async function refuse(message: string, database?: Database): Promise<never> {
  console.error(message);
  await database?.close();
  process.exit(1);
}

/** The configured database; on PGlite, refused while another process has DATA_DIR open (decision 043). */
async function open(config: Config): Promise<Database> {
  try {
    return await openConfiguredDatabase(config, 'server');
  } catch (error) {
    if (error instanceof DataDirBusy) return refuse(error.message);
    throw error;
  }
}

/**
 * The app on the configured database. A key the database needs is never generated anew, and a
 * key that cannot open what the database holds (TOTP_KEY, SEED_KEY) stops the process with one
 * line naming the file or variable (decision 042).
 */
async function start(config: Config, database: Database) {
  const keyOf = (key: SealingKey) =>
    ({ 'totp-key': config.totpKey, 'seed-key': config.seedKey, 'log-key': config.logKey })[key];
  try {
    const { jwtSecretCreated, ...keys } = await resolveKeys(database.db, config);
    const app = await buildApp({
      database,
      ...keys,
      logLevel: config.logLevel,
      metricsAllow: config.metricsAllow,
      trustProxy: config.trustProxy,
      publicUrl: config.publicUrl,
      beacon: config.beacon,
      logOrigin: config.logOrigin,
      witnesses: config.witnesses,
      // Signed checkpoints of the audit chains, hourly by default (decision 045).
      checkpoints: { dataDir: config.dataDir, ...config.checkpoints },
    });
    // Only now, with every key checked: a refused start writes no new jwt-secret.
    if (jwtSecretCreated) keepJwtSecret(config.dataDir, keys.jwtSecret);
    return app;
  } catch (error) {
    if (error instanceof KeyMismatch)
      return refuse(
        keyRefusal(error.key, keyPlace(error.key, keyOf(error.key), config.dataDir), error.missing),
        database,
      );
    if (error instanceof ConfigError) return refuse(error.message, database);
    throw error;
  }
}

const config = readConfig();
const database = await open(config);
const app = await start(config, database);

const admin = await ensureAdmin(database.db, { username: config.adminUsername, password: config.adminPassword });
if (admin.created) {
  app.log.info(`created the admin account "${admin.username}"`);
  // Printed once, on the first start only: it is not stored anywhere in clear.
  if (admin.generated)
    console.log(
      `\n  Admin login: ${admin.username} / ${admin.password}\n  (shown once; set ADMIN_PASSWORD to choose it)\n`,
    );
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) process.exit(1); // a second signal: stop waiting
    closing = true;
    // Behind a balancer, the process first refuses its health check and serves every call it still
    // gets, until the balancer has taken it out (STOP_DRAIN_MS). Closing the listener at once lost
    // calls: one the balancer had just sent, not yet read, went down with the listener, and HAProxy
    // closes the client's connection without an answer or a log line (decision 068).
    app.stopping.draining = config.stopDrainMs > 0;
    if (app.stopping.draining)
      app.log.info(`${signal}: health check refused for ${config.stopDrainMs} ms, then stopping`);
    setTimeout(() => {
      app.log.info(`${signal}: finishing requests in flight, then stopping`);
      // A stop that hangs (a connection that never lets go) must not hold a deploy or a restart:
      // after 5 s the process exits anyway, saying so.
      setTimeout(() => {
        app.log.error('stopping took more than 5 s: exiting without waiting further');
        process.exit(1);
      }, 5_000).unref();
      // The app closes first (its background jobs stop, waiting for a run in flight), then the database.
      app
        .close()
        .then(() => database.close())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'error while stopping');
            process.exit(1);
          },
        );
    }, config.stopDrainMs);
  });
}

const address = await app.listen({ port: config.port, host: config.host });
// The embedded database has one process: `npm run backup` finds this one here (decision 027).
if (database.kind === 'pglite') {
  writeServerFile(config.dataDir, address);
  // Every way out passes here (the signal handlers end with process.exit); a killed process leaves
  // the file behind, and the backup sees that its process is gone.
  process.on('exit', () => removeServerFile(config.dataDir));
}
console.log(`LOT is running on ${address} (${database.kind} database)`);
