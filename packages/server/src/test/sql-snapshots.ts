import { SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Role } from '@lot/domain/roles';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import type { Caller } from '../lib/caller.ts';

/** A database handle that only builds SQL (`.toSQL()`): nothing built on it can run. */
export const sqlOnly = drizzle.mock({ schema }) as unknown as Db;

const dialect = new PgDialect();

/** The statement text and parameters of a query builder or a raw statement, for a snapshot. */
export function sqlOf(query: { toSQL: () => { sql: string; params: unknown[] } } | SQL | undefined) {
  if (!query) return undefined;
  const { sql, params } = query instanceof SQL ? dialect.sqlToQuery(query) : query.toSQL();
  return { sql, params };
}

const caller = (id: number, role: Role): Caller => ({
  id,
  role,
  username: role,
  fullName: role,
  parentId: null,
  tokenVersion: 0,
});

/** One caller of each role, with fixed ids. */
export const callers = {
  admin: caller(1, 'admin'),
  superagent: caller(2, 'superagent'),
  agent: caller(3, 'agent'),
  user: caller(4, 'user'),
};
