import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';

/** DATABASE_URL switches to PostgreSQL; otherwise the embedded PGlite in DATA_DIR/db. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'db') });
}
