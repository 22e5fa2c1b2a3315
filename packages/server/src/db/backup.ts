import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * Backups and restores of either database (decision 027). PostgreSQL: its own tools, pg_dump's
 * custom format (compressed) and pg_restore. PGlite: its data directory as a gzipped tar
 * (`dumpDataDir`), loaded back with `loadDataDir`.
 */

/**
 * Where this configuration's seed key is, for the notes `npm run backup` and `npm run restore`
 * print: the games' seeds in a backup are sealed with it (decision 034), so it is kept with the
 * backup, but apart from it.
 */
export function seedKeyPlace(config: { seedKey: string | undefined; dataDir: string }): string {
  return config.seedKey
    ? 'SEED_KEY (as set here)'
    : `DATA_DIR/seed-key (${join(config.dataDir, 'seed-key')}) or SEED_KEY`;
}

/**
 * What `npm run restore` prints once the database is back, in order (decision 042): the keys
 * first (the server refuses to start without those that open what the database holds), then the
 * checks (on the embedded database they must run before the server holds DATA_DIR, decision
 * 043), then the start and a sign-in.
 */
export function nextSteps(config: { databaseUrl: string | undefined; dataDir: string }): string[] {
  const keys = config.databaseUrl
    ? 'set JWT_SECRET, TOTP_KEY, SEED_KEY and LOG_KEY to the values this database was used with ' +
      '(kept with its backups, apart from them)'
    : `put back the key files that were backed up with this database into DATA_DIR (${config.dataDir}): ` +
      'totp-key, seed-key, log-key and jwt-secret (or set TOTP_KEY, SEED_KEY, LOG_KEY, JWT_SECRET as they were)';
  // PostgreSQL needs all three variables to start at all; only the embedded database makes a new jwt-secret.
  const without = config.databaseUrl
    ? 'The server refuses to start without all four; TOTP_KEY, SEED_KEY or LOG_KEY other than before is refused, naming it; another JWT_SECRET signs everyone out'
    : 'Without totp-key, seed-key or log-key the server refuses to start; without jwt-secret it makes a new one and everyone signs in again';
  return [
    'Next, in this order:',
    `  1. ${keys}. ${without}.`,
    '  2. npm run ledger:check    every balance against the ledger',
    '  3. npm run audit:verify    the audit trail, row by row',
    '  4. npm start               applies any newer migrations and checks the keys against the database',
    '  5. sign in as the admin, with an authenticator code if two-factor sign-in is on',
  ];
}

/** A PGlite dump is a gzip; a pg_dump custom-format file starts with "PGDMP". */
export type BackupFormat = 'pglite' | 'postgres';

export function formatOf(head: Buffer): BackupFormat | undefined {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  return undefined;
}

/**
 * A copy of a PGlite database taken inside one (empty) transaction of its own: PGlite runs one
 * transaction at a time, so the copy waits for the one in flight and no other begins until it is
 * done. The copy is the data directory's files after a checkpoint, so it needs no recovery.
 */
export async function dumpPglite(client: PGlite): Promise<Blob> {
  return client.transaction(async (tx) => {
    await tx.exec('CHECKPOINT');
    return client.dumpDataDir('gzip');
  });
}

/**
 * Opens DATA_DIR/db without migrating it (a backup copies what is there) and dumps it, holding the
 * directory's lock meanwhile (decision 043): refused while another process has it open.
 */
export async function dumpPgliteDirectory(dataDir: string): Promise<Blob> {
  const release = lockDataDir(dataDir, 'backup');
  try {
    const client = new PGlite({ dataDir, extensions: { pg_trgm } });
    try {
      return await dumpPglite(client);
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/** Refuses a data directory that already holds anything: a restore never mixes two databases. */
export function assertEmptyDirectory(dataDir: string): void {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new RestoreRefused(
      `${dataDir} is not empty: a restore goes into an empty database only. Stop the server, move the directory aside (mv ${dataDir} ${dataDir}.old) and run the restore again.`,
    );
}

export class RestoreRefused extends Error {}

/**
 * Loads a PGlite dump into an empty data directory and returns how many users it holds; refused
 * while another process (a server) has the directory (decision 043).
 */
export async function restorePglite(file: string, dataDir: string): Promise<number> {
  const release = lockDataDir(dataDir, 'restore');
  try {
    assertEmptyDirectory(dataDir);
    mkdirSync(dirname(dataDir), { recursive: true, mode: 0o700 });
    const client = await PGlite.create({
      dataDir,
      extensions: { pg_trgm },
      loadDataDir: new Blob([readFileSync(file)]),
    });
    try {
      const result = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
      return result.rows[0]?.count ?? 0;
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/** A PostgreSQL program: on PATH, else the newest /usr/lib/postgresql/<version>/bin (as scripts/pg-temp.sh). */
export function pgBin(name: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root)
      ? readdirSync(root)
          .filter((v) => existsSync(join(root, v, 'bin', name)))
          .sort((a, b) => Number(a) - Number(b))
      : [];
    const newest = versions.at(-1);
    if (!newest) throw new Error(`${name} not found: install the PostgreSQL client programs (version 15 or newer)`);
    return join(root, newest, 'bin', name);
  }
}

function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgBin(program), args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

/**
 * pg_dump's custom format: compressed, and one consistent snapshot (pg_dump reads everything in
 * one repeatable-read transaction), taken while the servers keep running.
 */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`]);
}

/** Tables outside PostgreSQL's own schemas: a database with any is not empty. */
export async function countPostgresTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    return result.rows[0]?.count ?? 0;
  } finally {
    await client.end();
  }
}

/** pg_restore into an empty database, all or nothing (one transaction, stop at the first error). */
export async function restorePostgres(file: string, url: string): Promise<void> {
  const tables = await countPostgresTables(url);
  if (tables > 0)
    throw new RestoreRefused(
      `the database of DATABASE_URL is not empty (${tables} tables): a restore goes into an empty database only. Create a new one (createdb) and point DATABASE_URL at it.`,
    );
  await run('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${url}`,
    file,
  ]);
}

/**
 * Writes beside the target and renames: a failed backup never leaves a file that looks whole. The
 * copy is readable by its owner only (0600, decision 063), whoever wrote it (pg_dump included).
 */
export async function writeAtomically(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await write(partial);
    chmodSync(partial, 0o600);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export async function writeBlob(file: string, blob: Blob): Promise<void> {
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
}

/**
 * While a server has the embedded database open, DATA_DIR/server.json names it: PGlite has one
 * process only, so a backup then goes through that server, and a restore is refused.
 */
export type RunningServer = { pid: number; url: string };

export const serverFile = (dataDir: string) => join(dataDir, 'server.json');

export function writeServerFile(dataDir: string, url: string): void {
  writeFileSync(serverFile(dataDir), `${JSON.stringify({ pid: process.pid, url })}\n`, { mode: 0o600 });
}

export function removeServerFile(dataDir: string): void {
  rmSync(serverFile(dataDir), { force: true });
}

/** The server named in DATA_DIR/server.json, if its process still lives (a killed one leaves the file). */
export function runningServer(dataDir: string): RunningServer | undefined {
  let found: Partial<RunningServer>;
  try {
    found = JSON.parse(readFileSync(serverFile(dataDir), 'utf8')) as Partial<RunningServer>;
  } catch {
    return undefined;
  }
  if (typeof found.pid !== 'number' || typeof found.url !== 'string') return undefined;
  try {
    process.kill(found.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
  }
  return { pid: found.pid, url: found.url };
}
