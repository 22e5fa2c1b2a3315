import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, Logger, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dumpPglite } from './backup.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { LotPGlite, UnnamedStatementsClient } from './prepared.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** Either driver: services are written once against this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** PostgreSQL: a new connection outside the pool, for a long-lived LISTEN (decision 014). */
  newClient?: () => pg.Client;
  /** PGlite: a gzipped copy of its data directory, taken through this process (decision 027). */
  dump?: () => Promise<Blob>;
  /** PostgreSQL: the pool itself, whose connection counts GET /metrics reports. */
  pool?: pg.Pool;
};

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** An arbitrary constant: only one process migrates a PostgreSQL database at a time. */
const MIGRATION_LOCK = 7_424_201;

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      logger?: Logger;
      /**
       * The same database without a pooler in between (decision 055): the LISTEN connection and the
       * migration, whose advisory lock is held by its session, connect here. Default: `url`.
       */
      directUrl?: string;
      /** false: the hot statements run unnamed, for PgBouncer's transaction mode (decision 055). Default true. */
      prepared?: boolean;
    }
  /** `command`: who opens a data directory, named to any other process that tries (decision 043). */
  | { kind: 'pglite'; dataDir?: string; command?: string };

/** Opens the database and brings its schema up to date with the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const directUrl = options.directUrl ?? options.url;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Unnamed statements are this database's own (its pool's connections), not the process's.
      ...(options.prepared === false ? { Client: UnnamedStatementsClient } : {}),
    });
    // An idle connection that drops (server restart, network) must not take the process down:
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error(`PostgreSQL connection error: ${error.message}`));
    // The migration holds a session's advisory lock: on its own direct connection when a pooler
    // in transaction mode stands in front (it could hand the unlock to another server connection).
    const direct = options.directUrl ? new pg.Client({ connectionString: directUrl }) : undefined;
    if (direct) {
      direct.on('error', (error) => console.error(`PostgreSQL connection error: ${error.message}`));
      await direct.connect();
    }
    const client = direct ?? (await pool.connect());
    client.on('notice', reportMigrationNotice);
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      client.off('notice', reportMigrationNotice);
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      if (direct) await direct.end().catch(() => undefined);
      else (client as pg.PoolClient).release();
    }
    return {
      db: drizzlePg({ client: pool, schema, logger: options.logger }) as unknown as Db,
      kind: 'postgres',
      close: () => pool.end(),
      newClient: () => new pg.Client({ connectionString: directUrl, keepAlive: true }),
      pool,
    };
  }
  // One process at a time on a data directory (decision 043): taken before PGlite touches it.
  const release = options.dataDir ? lockDataDir(options.dataDir, options.command ?? 'process') : () => {};
  let client: LotPGlite | undefined;
  try {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    // pg_trgm serves the user search indexes; PostgreSQL ships it, PGlite loads it here.
    client = new LotPGlite({ dataDir: options.dataDir, extensions: { pg_trgm } });
    const db = drizzlePglite({ client, schema });
    client.onNotice = reportMigrationNotice;
    try {
      await migratePglite(db, { migrationsFolder });
    } finally {
      client.onNotice = undefined;
    }
    const opened = client;
    const close = async () => {
      try {
        await opened.close();
      } finally {
        release();
      }
    };
    return { db: db as unknown as Db, kind: 'pglite', close, dump: () => dumpPglite(opened) };
  } catch (error) {
    await client?.close().catch(() => undefined);
    release();
    throw error;
  }
}

/**
 * What a migration says with RAISE NOTICE (SQLSTATE 00000): what it changed in the data, e.g. the
 * duplicate winner configurations 0013 deactivated. PostgreSQL's own notices ("already exists,
 * skipping") are not news.
 */
function reportMigrationNotice(notice: { code?: string; message?: string }): void {
  if (notice.code === '00000') console.warn(`migration: ${notice.message}`);
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`, which the shared type cannot see. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
