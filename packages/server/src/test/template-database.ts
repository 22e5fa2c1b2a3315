import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { dumpPglite } from '../db/backup.ts';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { LotPGlite } from '../db/prepared.ts';
import * as schema from '../db/schema.ts';

/**
 * Test apps start from a copy of a database the server has already migrated, instead of migrating
 * each one afresh (README.md#test-it): PGlite's initdb and the migrations took
 * 2 to 3 s of CPU per test app, PostgreSQL's migrations about a second. The template is made once
 * per machine and set of migrations through `openDatabase`, as the server makes its database; each
 * copy is migrated again through Drizzle's migrator, which finds nothing to do (and would apply
 * whatever the template missed).
 */

const migrationsFolder = fileURLToPath(new URL('../db/migrations', import.meta.url));

const pgliteRelease = readFileSync(
  join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json'),
);

/** Names the template after what it holds: the migrations and the PGlite release that wrote it. */
const key = (() => {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(migrationsFolder, name);
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(path));
  }
  hash.update(pgliteRelease);
  return hash.digest('hex').slice(0, 16);
})();

/**
 * A new PGlite data directory in `dataDir` (which must not exist), as PGlite's initdb leaves it,
 * empty: copied from one made once per machine and PGlite release (initdb on disk took 3 s of CPU,
 * the copy a tenth of that). For tests that migrate a directory part of the way themselves.
 */
export async function emptyPgliteDirectory(dataDir: string): Promise<void> {
  const release = createHash('sha256').update(pgliteRelease).digest('hex').slice(0, 16);
  const template = join(tmpdir(), `lot-test-pglite-initdb-${release}`);
  if (!existsSync(template)) {
    const partial = mkdtempSync(`${template}.`);
    const client = new PGlite({ dataDir: partial, extensions: { pg_trgm } });
    await client.waitReady;
    await client.close();
    // Renamed when whole; another test process may have made it meanwhile (then this one goes).
    try {
      renameSync(partial, template);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  cpSync(template, dataDir, { recursive: true });
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * The migrated PGlite data directory, as a backup dumps it: made once, kept in the temp folder,
 * and held here unzipped (a plain tar opens in half the time of the gzipped one).
 */
function pgliteTemplateDump(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = join(tmpdir(), `lot-test-pglite-${key}.tar.gz`);
    if (!existsSync(file)) {
      const database = await openDatabase({ kind: 'pglite' });
      const dump = await database.dump!();
      await database.close();
      // Written aside and renamed: another test process may be reading or writing it meanwhile.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
    }
    return new Blob([gunzipSync(readFileSync(file))]);
  })();
  return pgliteTemplate;
}

let pgliteRuntime: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>> | undefined;

/**
 * What every PGlite instance loads before it opens a data directory — its compiled WebAssembly and
 * its file bundle — read once per test process instead of once per test app. With the unzipped
 * template, a test app's database opens in about 0.4 s instead of 1.0 s (README.md#test-it).
 */
function pgliteRuntimeOnce() {
  pgliteRuntime ??= (async () => {
    // The server's TypeScript libraries (no DOM) do not declare WebAssembly; Node has it.
    const { WebAssembly: wasm } = globalThis as unknown as {
      WebAssembly: { compile: (bytes: Uint8Array) => Promise<NonNullable<PGliteOptions['pgliteWasmModule']>> };
    };
    const dist = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    return {
      pgliteWasmModule: await wasm.compile(readFileSync(join(dist, 'pglite.wasm'))),
      initdbWasmModule: await wasm.compile(readFileSync(join(dist, 'initdb.wasm'))),
      fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]),
    };
  })();
  return pgliteRuntime;
}

/** A fresh in-memory PGlite database, migrated: what `openDatabase({ kind: 'pglite' })` answers. */
export async function openPgliteFromTemplate(): Promise<Database> {
  const client = new LotPGlite({
    loadDataDir: await pgliteTemplateDump(),
    extensions: { pg_trgm },
    ...(await pgliteRuntimeOnce()),
  });
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'pglite', close: () => client.close(), dump: () => dumpPglite(client) };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/** An arbitrary constant: one test process at a time makes the PostgreSQL template. */
const TEMPLATE_LOCK = 7_424_233;

/**
 * The name of a migrated PostgreSQL database on the server of `base` (TEST_DATABASE_URL) to copy
 * with CREATE DATABASE … TEMPLATE, made the first time it is asked for. It is migrated under
 * another name and renamed when done, so a half-made one (a killed run) is never copied.
 */
export async function postgresTemplate(base: string): Promise<string> {
  const name = `lot_template_${key}`;
  const building = `${name}_building`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(base);
      url.pathname = `/${building}`;
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
      await database.close();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    await admin.end();
  }
}
