import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import type { AppContext } from '../../lib/context.ts';
import { fileStamp } from '../../lib/clock.ts';
import { recordBackupTaken, type BackupTaker } from './backup-keys.service.ts';

/**
 * A copy of the embedded database, taken by the one process that may open it (decision 027).
 * PostgreSQL is backed up with its own tools: `npm run backup` runs pg_dump. `dump`: the embedded
 * database's (`Database.dump`), undefined on PostgreSQL.
 */
export async function backupDatabase(dump: (() => Promise<Blob>) | undefined): Promise<Buffer> {
  if (!dump) throw new AppError('CONFLICT', SERVER_MESSAGES.backupOnPostgres);
  return Buffer.from(await (await dump()).arrayBuffer());
}

/**
 * `GET /api/admin/backup`: the copy, its audit row (and the key's last use) once it is taken, and
 * the file name it is handed out under (`lot-{yyyymmddThhmmss}.tar.gz`, the context's clock).
 */
export async function takeBackup(
  ctx: AppContext,
  dump: (() => Promise<Blob>) | undefined,
  taker: BackupTaker,
): Promise<{ copy: Buffer; fileName: string }> {
  const copy = await backupDatabase(dump);
  await recordBackupTaken(ctx, taker, copy.length);
  return { copy, fileName: `lot-${fileStamp(ctx.clock())}.tar.gz` };
}
