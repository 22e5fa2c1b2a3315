import { join } from 'node:path';
import type { Config } from '../config.ts';
import { keepDataDirPrivate } from './private-files.ts';
import { openDatabase, type Database } from './client.ts';
import { DataDirBusy } from './data-dir-lock.ts';

/**
 * DATABASE_URL switches to PostgreSQL; otherwise the embedded PGlite in DATA_DIR/db, which one
 * process at a time may open: `command` (`server`, or the npm script) names this one to any other
 * that tries, and `DataDirBusy` is thrown while another has it (decision 043). First the process's
 * umask becomes 077 and DATA_DIR is closed to other accounts again (decision 063); PGlite sets its
 * files' modes itself (0666, past the umask), so they are closed again once it has opened the
 * directory and once it has closed it.
 */
export async function openConfiguredDatabase(config: Config, command: string): Promise<Database> {
  keepDataDirPrivate(config.dataDir, { create: !config.databaseUrl });
  if (config.databaseUrl)
    return openDatabase({
      kind: 'postgres',
      url: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      prepared: config.databasePrepared,
    });
  const database = await openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'db'), command });
  keepDataDirPrivate(config.dataDir, { create: false });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      try {
        await close();
      } finally {
        keepDataDirPrivate(config.dataDir, { create: false });
      }
    },
  };
}

/** Exit code of a command that did not run because another process has DATA_DIR open. */
export const BUSY_EXIT_CODE = 2;

/**
 * For the npm scripts: the database, or the one-line refusal on stderr and exit code 2 while
 * another process (a running server) has DATA_DIR/db open. The command never touches it then.
 */
export async function openForCommand(config: Config, command: string): Promise<Database> {
  try {
    return await openConfiguredDatabase(config, command);
  } catch (error) {
    if (!(error instanceof DataDirBusy)) throw error;
    console.error(error.message);
    process.exit(BUSY_EXIT_CODE);
  }
}
