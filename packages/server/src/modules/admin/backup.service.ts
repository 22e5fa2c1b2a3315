import { AppError } from '@lot/domain/errors';

/**
 * A copy of the embedded database, taken by the one process that may open it (decision 027).
 * PostgreSQL is backed up with its own tools: `npm run backup` runs pg_dump. `dump`: the embedded
 * database's (`Database.dump`), undefined on PostgreSQL.
 */
export async function backupDatabase(dump: (() => Promise<Blob>) | undefined): Promise<Buffer> {
  if (!dump)
    throw new AppError(
      'CONFLICT',
      'This server runs on PostgreSQL: back it up with npm run backup, which runs pg_dump on DATABASE_URL.',
    );
  return Buffer.from(await (await dump()).arrayBuffer());
}
