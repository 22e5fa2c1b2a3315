import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { DataDirBusy } from './data-dir-lock.ts';

/**
 * DATABASE_URL switches to PostgreSQL; otherwise the embedded PGlite in DATA_DIR/db, which one
 * process at a time may open: `command` (`server`, or the npm script) names this one to any other
 * that tries, and `DataDirBusy` is thrown while another has it (decision 043).
 */
export function openConfiguredDatabase(config: Config, command: string): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        directUrl: config.databaseDirectUrl,
        prepared: config.databasePrepared,
      })
    : openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'db'), command });
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
