import { MESSAGES } from '@lot/domain/messages';
import { AppError } from '@lot/domain/errors';

/**
 * A copy of the embedded database, taken by the one process that may open it (decision 027).
 * PostgreSQL is backed up with its own tools: `npm run backup` runs pg_dump. `dump`: the embedded
 * database's (`Database.dump`), undefined on PostgreSQL.
 */
export async function backupDatabase(dump: (() => Promise<Blob>) | undefined): Promise<Buffer> {
  if (!dump) throw new AppError('CONFLICT', MESSAGES.backupOnPostgres);
  return Buffer.from(await (await dump()).arrayBuffer());
}
