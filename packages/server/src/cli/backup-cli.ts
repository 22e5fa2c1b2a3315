import { join, resolve } from 'node:path';
import { loadCommandConfig } from './command-config.ts';
import { dumpPgliteDirectory, dumpPostgres, runningServer, writeAtomically, writeBlob } from '../db/backup.ts';
import { keepDataDirPrivate } from '../db/private-files.ts';
import { fileStamp } from '../lib/clock.ts';
import { assertWritableFolder, backupCredential, backupThroughServer, restoreKeysNote } from './backup-client.ts';

/**
 * `npm run backup [file]` (decisions 027 and 041). PostgreSQL: pg_dump. PGlite: through the running
 * server (GET /api/admin/backup with a backup key, or the admin's password while no code is asked)
 * when one has DATA_DIR open, else the directory directly. Ends with the keys a restore needs.
 */
const config = loadCommandConfig('backup');
// The copy and anything this command writes are its owner's only (decision 063).
keepDataDirPrivate(config.dataDir, { create: false });
const file = resolve(
  process.argv[2] ?? `lot-backup-${fileStamp(config.clock())}.${config.databaseUrl ? 'dump' : 'tar.gz'}`,
);

try {
  // Before anything is asked of a server or a database: a copy nobody can write is not taken.
  assertWritableFolder(file);
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    await writeAtomically(file, (partial) => dumpPostgres(url, partial));
    console.log(`Backup of the PostgreSQL database (pg_dump, custom format) written to ${file}`);
  } else {
    const server = process.env.LOT_URL ? { url: process.env.LOT_URL } : runningServer(config.dataDir);
    if (server) {
      const credential = backupCredential(process.env, {
        username: config.adminUsername,
        password: config.adminPassword,
      });
      await backupThroughServer(server.url, credential, file);
      console.log(`Backup of the embedded database, taken by the server at ${server.url}, written to ${file}`);
    } else {
      const dataDir = join(config.dataDir, 'db');
      await writeAtomically(file, async (partial) => writeBlob(partial, await dumpPgliteDirectory(dataDir)));
      // PGlite sets its files' modes past the umask: closed again (decision 063).
      keepDataDirPrivate(config.dataDir, { create: false });
      console.log(`Backup of the embedded database in ${dataDir} written to ${file}`);
    }
  }
  console.log(restoreKeysNote(config));
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
