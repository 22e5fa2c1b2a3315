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
 * For the npm scripts: the database, or one line on stderr and exit code 2 when it cannot be
 * opened: another process (a running server) has DATA_DIR/db open (the command never touches it
 * then), PostgreSQL cannot be reached or refuses the connection, or a migration fails.
 */
export async function openForCommand(config: Config, command: string): Promise<Database> {
  try {
    return await openConfiguredDatabase(config, command);
  } catch (error) {
    console.error(error instanceof DataDirBusy ? error.message : `${command}: ${openFailure(error, config)}`);
    process.exit(BUSY_EXIT_CODE);
  }
}

/** Why the database did not open, in one line: the place named, never DATABASE_URL's password. */
export function openFailure(error: unknown, config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = String(message ?? error).split('\n')[0];
  if (!config.databaseUrl) return `cannot open the embedded database in ${join(config.dataDir, 'db')}: ${text}`;
  const url = new URL(config.databaseUrl);
  const where = `PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname} (DATABASE_URL)`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH')
    return `cannot reach ${where}: ${text}`;
  return `${where} ${code && /^[0-9A-Z]{5}$/.test(code) ? `refused (${code})` : 'failed'}: ${text}`;
}
