import { openSync, readSync, closeSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { formatOf, restorePglite, restorePostgres, RestoreRefused, runningServer, seedKeyPlace } from './backup.ts';

/**
 * `npm run restore <file>` (decision 027): into an empty database only. PostgreSQL: pg_restore
 * into the (empty) database of DATABASE_URL; PGlite: the dump loaded into an empty DATA_DIR/db.
 */
const config = loadConfig();
const argument = process.argv[2];

function head(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(8);
    readSync(fd, buffer, 0, 8, 0);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

try {
  if (!argument) throw new RestoreRefused('usage: npm run restore <backup file>');
  const file = resolve(argument);
  if (!existsSync(file)) throw new RestoreRefused(`${file} does not exist`);
  const format = formatOf(head(file));
  const target = config.databaseUrl ? 'postgres' : 'pglite';
  if (format !== target)
    throw new RestoreRefused(
      format
        ? `${file} is a backup of ${format === 'postgres' ? 'a PostgreSQL database (pg_dump)' : 'the embedded database (PGlite)'}, but this configuration restores into ${target === 'postgres' ? 'the PostgreSQL database of DATABASE_URL' : 'the embedded database in DATA_DIR'}`
        : `${file} is not a LOT backup (neither a PGlite gzip nor a pg_dump custom-format file)`,
    );
  if (config.databaseUrl) {
    await restorePostgres(file, config.databaseUrl);
    console.log(`Restored ${file} into the PostgreSQL database of DATABASE_URL.`);
  } else {
    const server = runningServer(config.dataDir);
    if (server)
      throw new RestoreRefused(`a server (pid ${server.pid}, ${server.url}) has this DATA_DIR open: stop it first`);
    const dataDir = join(config.dataDir, 'db');
    const users = await restorePglite(file, dataDir);
    console.log(`Restored ${file} into ${dataDir} (${users} users).`);
  }
  console.log(
    `Next: put back the seed key that came with this backup, kept apart from it, as ${seedKeyPlace(config)}: ` +
      "the games' seeds are sealed with it and the server starts only with it. Then npm run ledger:check and " +
      'npm run audit:verify, then start the server (it applies any newer migrations).',
  );
} catch (error) {
  console.error(`Restore refused or failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
