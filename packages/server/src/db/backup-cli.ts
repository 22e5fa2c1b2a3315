import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { loadConfig } from '../config.ts';
import {
  dumpPgliteDirectory,
  dumpPostgres,
  runningServer,
  seedKeyPlace,
  writeAtomically,
  writeBlob,
} from './backup.ts';

/**
 * `npm run backup [file]` (decision 027). PostgreSQL: pg_dump. PGlite: through the running server
 * (GET /api/admin/backup as the admin) when one has DATA_DIR open, else the directory directly.
 */
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
const file = resolve(process.argv[2] ?? `lot-backup-${stamp}.${config.databaseUrl ? 'dump' : 'tar.gz'}`);

/** Signs in as the admin and streams the server's copy into the file. */
async function fromServer(url: string): Promise<void> {
  const password = process.env.ADMIN_PASSWORD;
  if (!password)
    throw new Error(
      `a server (${url}) has the database open: set ADMIN_USERNAME and ADMIN_PASSWORD so the backup can ask it`,
    );
  const signin = await fetch(new URL('/api/auth/signin', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: config.adminUsername, password }),
  });
  if (!signin.ok)
    throw new Error(`signing in as ${config.adminUsername} failed: ${signin.status} ${await signin.text()}`);
  const { accessToken } = (await signin.json()) as { accessToken: string };
  const response = await fetch(new URL('/api/admin/backup', url), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok || !response.body)
    throw new Error(`the server refused the backup: ${response.status} ${await response.text()}`);
  const body = response.body;
  await writeAtomically(file, (partial) =>
    pipeline(Readable.fromWeb(body as ReadableStream), createWriteStream(partial)),
  );
}

try {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    await writeAtomically(file, (partial) => dumpPostgres(url, partial));
    console.log(`Backup of the PostgreSQL database (pg_dump, custom format) written to ${file}`);
  } else {
    const server = process.env.LOT_URL ? { url: process.env.LOT_URL } : runningServer(config.dataDir);
    if (server) {
      await fromServer(server.url);
      console.log(`Backup of the embedded database, taken by the server at ${server.url}, written to ${file}`);
    } else {
      const dataDir = join(config.dataDir, 'db');
      await writeAtomically(file, async (partial) => writeBlob(partial, await dumpPgliteDirectory(dataDir)));
      console.log(`Backup of the embedded database in ${dataDir} written to ${file}`);
    }
  }
  console.log(
    `Keep the seed key with this backup, but not in the same place: ${seedKeyPlace(config)}. ` +
      "The games' seeds in the backup are sealed with it; a server on the restored database starts only with it.",
  );
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
