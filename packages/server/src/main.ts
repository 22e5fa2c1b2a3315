import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { removeServerFile, writeServerFile } from './db/backup.ts';
import type { Database } from './db/client.ts';
import { openConfiguredDatabase } from './db/open-from-config.ts';
import { ensureAdmin } from './db/seed.ts';
import { scheduleCheckpoints } from './modules/audit/checkpoint.ts';
import { resolveJwtSecret, resolveSeedKey, resolveTotpKey } from './secrets.ts';

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

/** The app on the configured database; a key the database refuses (SEED_KEY) stops the process. */
async function start(config: Config, database: Database) {
  try {
    return await buildApp({
      database,
      jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
      totpKey: resolveTotpKey(config.totpKey, config.dataDir),
      seedKey: resolveSeedKey(config.seedKey, config.dataDir),
      logLevel: config.logLevel,
      metricsAllow: config.metricsAllow,
      trustProxy: config.trustProxy,
      publicUrl: config.publicUrl,
      beacon: config.beacon,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const database = await openConfiguredDatabase(config);
const app = await start(config, database);
app.addHook('onClose', () => database.close());

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
    app.log.info(`${signal}: finishing requests in flight, then stopping`);
    // A stop that hangs (a connection that never lets go) must not hold a deploy or a restart:
    // after 5 s the process exits anyway, saying so.
    setTimeout(() => {
      app.log.error('stopping took more than 5 s: exiting without waiting further');
      process.exit(1);
    }, 5_000).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  });
}

// Signed checkpoints of the audit chains, hourly by default (decision 045).
const stopCheckpoints = scheduleCheckpoints(database.db, { dataDir: config.dataDir, ...config.checkpoints }, app.log);
app.addHook('onClose', async () => stopCheckpoints());

const address = await app.listen({ port: config.port, host: config.host });
// The embedded database has one process: `npm run backup` finds this one here (decision 027).
if (database.kind === 'pglite') {
  writeServerFile(config.dataDir, address);
  // Every way out passes here (the signal handlers end with process.exit); a killed process leaves
  // the file behind, and the backup sees that its process is gone.
  process.on('exit', () => removeServerFile(config.dataDir));
}
console.log(`LOT is running on ${address} (${database.kind} database)`);
