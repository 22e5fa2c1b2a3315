import { AppError } from '@lot/domain/errors';
import type { Database } from '../../db/client.ts';

/**
 * A copy of the embedded database, taken by the one process that may open it (decision 027).
 * PostgreSQL is backed up with its own tools: `npm run backup` runs pg_dump.
 */
export async function backupDatabase(database: Database): Promise<Buffer> {
  if (!database.dump)
    throw new AppError(
      'CONFLICT',
      'This server runs on PostgreSQL: back it up with npm run backup, which runs pg_dump on DATABASE_URL.',
    );
  return Buffer.from(await (await database.dump()).arrayBuffer());
}
