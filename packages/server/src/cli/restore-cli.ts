import { openSync, readSync, closeSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCommandConfig } from './command-config.ts';
import { formatOf, nextSteps, restorePglite, restorePostgres, RestoreRefused } from '../db/backup.ts';
import { keepDataDirPrivate } from '../db/private-files.ts';

/**
 * `npm run restore <file>` (decision 027): into an empty database only. PostgreSQL: pg_restore
 * into the (empty) database of DATABASE_URL; PGlite: the dump loaded into an empty DATA_DIR/db,
 * refused while a server has DATA_DIR (decision 043). Then it prints every next step, in order.
 */
const config = loadCommandConfig('restore');
// The restored database and DATA_DIR are their owner's only (decision 063).
keepDataDirPrivate(config.dataDir, { create: !config.databaseUrl });
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
    const dataDir = join(config.dataDir, 'db');
    const users = await restorePglite(file, dataDir);
    // PGlite wrote the restored files 0666 (past the umask): closed again.
    keepDataDirPrivate(config.dataDir, { create: false });
    console.log(`Restored ${file} into ${dataDir} (${users} users).`);
  }
  for (const line of nextSteps(config)) console.log(line);
} catch (error) {
  console.error(`Restore refused or failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
