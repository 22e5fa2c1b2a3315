import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

/**
 * What the auth check needs of the caller, on every authenticated request: built once per
 * database as a prepared statement (PostgreSQL parses and plans it once per connection).
 */
function prepareCallerLookup(db: Db) {
  return db
    .select({
      id: users.id,
      username: users.username,
      fullName: users.fullName,
      role: users.role,
      parentId: users.parentId,
      status: users.status,
      tokenVersion: users.tokenVersion,
    })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
    .prepare('find_live_caller');
}

const callerLookups = new WeakMap<Db, ReturnType<typeof prepareCallerLookup>>();

export async function findLiveCaller(db: Db, id: number) {
  let lookup = callerLookups.get(db);
  if (!lookup) {
    lookup = prepareCallerLookup(db);
    callerLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ id });
  return row;
}
