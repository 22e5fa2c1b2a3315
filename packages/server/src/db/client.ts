import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, Logger, SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dumpPglite } from './backup.ts';
import { lockDataDir } from './data-dir-lock.ts';
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
  | { kind: 'postgres'; url: string; poolSize?: number; logger?: Logger }
  /** `command`: who opens a data directory, named to any other process that tries (decision 043). */
  | { kind: 'pglite'; dataDir?: string; command?: string };

/** Opens the database and brings its schema up to date with the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection that drops (server restart, network) must not take the process down:
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error(`PostgreSQL connection error: ${error.message}`));
    const client = await pool.connect();
    client.on('notice', reportMigrationNotice);
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      client.off('notice', reportMigrationNotice);
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
    return {
      db: drizzlePg({ client: pool, schema, logger: options.logger }) as unknown as Db,
      kind: 'postgres',
      close: () => pool.end(),
      newClient: () => new pg.Client({ connectionString: options.url, keepAlive: true }),
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

const dialect = new PgDialect();

/**
 * Rows of a raw SQL statement that runs on a hot path, as a named prepared statement: node-postgres
 * sends a named statement's text once per connection and afterwards only binds values, and
 * PostgreSQL keeps its parse (and, once it judges it as good, its plan). The name is a hash of the
 * text, so calls that build the same text share one statement and two texts never claim one name.
 * It goes through the same Drizzle session as every other query (same connection, same
 * transaction, same logger). Drizzle names statements only for its query builders, so this calls
 * its session's `prepareQuery`, an internal API: client.test.ts pins it. On PGlite, whose query API
 * has no names, the statement is prepared on the protocol level instead (`pglitePrepared`).
 */
export async function queryPrepared<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = statementName(built.sql);
  const prepared = db._.session.prepareQuery(built, undefined, name, false);
  const pglite = pgliteClient(prepared as unknown as { client: unknown }, name);
  if (pglite) (prepared as unknown as { client: unknown }).client = pglite;
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}

/** A statement's name: a hash of its text, so equal texts share one and two texts never claim one. */
export function statementName(text: string): string {
  return `lot_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** What `selectPrepared` touches of a Drizzle prepared query (both drivers' have these). */
type PreparedInternals = {
  queryString: string;
  rawQueryConfig: { name?: string };
  queryConfig: { name?: string };
  client: unknown;
  execute(): Promise<unknown>;
};

/**
 * A Drizzle select (or count) run as a named prepared statement, its rows mapped as Drizzle maps
 * them: for list calls, whose statements PostgreSQL would otherwise parse and plan on every call
 * (planning a page with its joins cost more than running it, and made its slow tail). Drizzle's
 * `prepare(name)` wants the name before the text exists, so the query is prepared under a
 * placeholder and renamed after its hash (`statementName`): the same internals `queryPrepared`
 * uses, pinned by client.test.ts.
 */
export async function selectPrepared<T>(query: { prepare(name: string): { execute(): Promise<T> } }): Promise<T> {
  const prepared = query.prepare('lot_unnamed') as unknown as PreparedInternals;
  const name = statementName(prepared.queryString);
  prepared.rawQueryConfig.name = name;
  prepared.queryConfig.name = name;
  const pglite = pgliteClient(prepared, name);
  if (pglite) prepared.client = pglite;
  return (await prepared.execute()) as T;
}

/** Each PGlite transaction (Drizzle's session client inside `db.transaction`) to its database. */
const transactionDatabase = new WeakMap<Transaction, LotPGlite>();

/**
 * PGlite that knows its transactions and the statements prepared on its one connection (statement
 * name → its parameters' type OIDs). Prepared statements outlive a rolled-back transaction, as on
 * PostgreSQL, so the list is never undone.
 */
class LotPGlite extends PGlite {
  readonly prepared = new Map<string, number[]>();
  /** While migrating: what the NOTICEs of the statements run in a transaction go to. */
  onNotice: ((notice: { code?: string; message?: string }) => void) | undefined;

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => {
      transactionDatabase.set(tx, this);
      const onNotice = this.onNotice;
      if (onNotice) {
        const query = tx.query.bind(tx);
        tx.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
          query(text, params, { ...options, onNotice })) as Transaction['query'];
      }
      return callback(tx);
    });
  }
}

/**
 * For a Drizzle PGlite query: a stand-in for its client that runs the text as the named statement
 * `name` (PGlite's `query` parses, describes and plans every call afresh, six calls into the
 * database for one statement). The first use parses and describes it; every later one is a single
 * call into the database: Bind, Describe, Execute, Sync. It takes the locks PGlite's `query` takes
 * (outside a transaction: the transaction lock, so it never runs inside someone else's; then the
 * query lock), answers the rows PGlite's `query` would (same parsers and options: Drizzle's), and
 * flushes to disk when PGlite would. Undefined for anything but PGlite.
 */
function pgliteClient(query: { client: unknown }, name: string) {
  const client = query.client;
  const inTransaction = !(client instanceof LotPGlite);
  const database = client instanceof LotPGlite ? client : transactionDatabase.get(client as Transaction);
  if (!database) return undefined;
  const { serialize } = protocol;
  const run = async (text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results> => {
    let types = database.prepared.get(name);
    if (!types) {
      const described = await database.execProtocol(
        Buffer.concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      types = parse.parseDescribeStatementResults(described.messages);
      database.prepared.set(name, types);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = types[i] ?? 0;
      const serializer = options.serializers?.[type] ?? database.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await database.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: !inTransaction },
    );
    const [result] = parse.parseResults(messages, database.parsers, options);
    if (!result) throw new Error(`no result from prepared statement ${name}`);
    return result;
  };
  return {
    query: (text: string, params?: unknown[], options?: QueryOptions) =>
      inTransaction
        ? database._runExclusiveQuery(() => run(text, params, options))
        : database._runExclusiveTransaction(() => database._runExclusiveQuery(() => run(text, params, options))),
  };
}
