import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { expect } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { emptyPgliteDirectory } from './template-database.ts';
import { freshPostgres, TEST_DB } from './test-app.ts';

/**
 * A migration tested on the data it meets: a database migrated up to just before it, given rows
 * by `seed`, then opened as the server opens it (which applies it and whatever follows).
 */

const migrations = fileURLToPath(new URL('../db/migrations', import.meta.url));
type Journal = { entries: { idx: number; tag: string }[] };

/** A copy of the migrations folder that ends before `tag`. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'lot-migrations-'));
  const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8')) as Journal;
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(upTo).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, upTo);
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) copyFileSync(join(migrations, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

/** Undoes what `upgradeWith` made (databases, folders), newest first; call it in afterAll. */
export type Cleanups = (() => Promise<void> | void)[];

/** A database migrated up to just before `tag` (given `seed`), then opened through openDatabase. */
export async function upgradeWith(tag: string, cleanups: Cleanups, seed: (db: Db) => Promise<void>): Promise<Database> {
  const before = migrationsBefore(tag);
  cleanups.push(() => rmSync(before, { recursive: true, force: true }));
  if (TEST_DB === 'postgres') {
    const fresh = await freshPostgres();
    cleanups.push(fresh.drop);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    const db = drizzlePg({ client, schema });
    await migratePg(db, { migrationsFolder: before });
    await seed(db as unknown as Db);
    await client.end();
    return openDatabase({ kind: 'postgres', url: fresh.url });
  }
  const dataDir = join(mkdtempSync(join(tmpdir(), 'lot-pglite-')), 'db');
  cleanups.push(() => rmSync(dirname(dataDir), { recursive: true, force: true }));
  await emptyPgliteDirectory(dataDir);
  const client = new PGlite({ dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: before });
  await seed(db as unknown as Db);
  await client.close();
  return openDatabase({ kind: 'pglite', dataDir });
}

export async function runCleanups(cleanups: Cleanups): Promise<void> {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
