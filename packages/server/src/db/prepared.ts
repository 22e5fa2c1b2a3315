import { createHash } from 'node:crypto';
import { parse, PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

/**
 * Named prepared statements, the one place LOT reaches below the public APIs of drizzle-orm and
 * PGlite (decision 031): Drizzle names statements only for its query builders, and PGlite's query
 * API has no names. What this touches of them is pinned twice: exact versions in
 * packages/server/package.json (no caret: an install cannot change them) and prepared.test.ts, which
 * fails if an upgrade moves an internal instead of letting the money calls quietly lose their
 * prepared statements (or their transaction).
 */

const dialect = new PgDialect();

/**
 * A PostgreSQL connection that sends every statement unnamed (DATABASE_PREPARED=off, decision 055):
 * behind PgBouncer in transaction mode a name prepared on one server connection is unknown on the
 * next, so the same SQL runs unnamed there (parsed and planned on every call). `openDatabase` gives
 * it to the pool of a database opened with `prepared: false`: whether statements are named is a
 * property of the opened database, never of the process (two databases in one process may differ).
 * It drops the name of every query this connection sends, the ones `queryPrepared`,
 * `selectPrepared` and Drizzle's `.prepare(name)` name alike.
 */
export class UnnamedStatementsClient extends pg.Client {}
const send = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
UnnamedStatementsClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  return send.call(this, withoutName(config), ...rest);
} as pg.Client['query'];

/** A query's config without its statement name; a stream (a Submittable) or a plain text as it is. */
function withoutName(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('name' in config)) return config;
  if (typeof (config as { submit?: unknown }).submit === 'function') return config;
  return { ...config, name: undefined };
}

/**
 * Rows of a raw SQL statement that runs on a hot path, as a named prepared statement: node-postgres
 * sends a named statement's text once per connection and afterwards only binds values, and
 * PostgreSQL keeps its parse (and, once it judges it as good, its plan). The name is a hash of the
 * text, so calls that build the same text share one statement and two texts never claim one name.
 * It goes through the same Drizzle session as every other query (same connection, same
 * transaction, same logger). Drizzle names statements only for its query builders, so this calls
 * its session's `prepareQuery`, an internal API: prepared.test.ts pins it. On PGlite, whose query API
 * has no names, the statement is prepared on the protocol level instead (`pgliteClient`).
 */
export async function queryPrepared<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = statementName(built.sql);
  const prepared = db._.session.prepareQuery(built, undefined, name, false) as unknown as PreparedInternals;
  const pglite = pgliteClient(prepared, name);
  if (pglite) prepared.client = pglite;
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
 * uses, pinned by prepared.test.ts.
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

/** A PGlite transaction (Drizzle's session client inside `db.transaction`) knows its database. */
type OwnedTransaction = Transaction & { readonly lotDatabase?: LotPGlite };

/**
 * PGlite that knows its transactions and the statements prepared on its one connection (statement
 * name → its parameters' type OIDs). Prepared statements outlive a rolled-back transaction, as on
 * PostgreSQL, so the list is never undone.
 */
export class LotPGlite extends PGlite {
  readonly prepared = new Map<string, number[]>();
  /** While migrating: what the NOTICEs of the statements run in a transaction go to. */
  onNotice: ((notice: { code?: string; message?: string }) => void) | undefined;

  override transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => {
      Object.defineProperty(tx, 'lotDatabase', { value: this });
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
  const database = client instanceof LotPGlite ? client : (client as OwnedTransaction | null)?.lotDatabase;
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
