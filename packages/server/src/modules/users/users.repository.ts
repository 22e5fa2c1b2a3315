import { and, eq, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Role } from '@lot/domain/roles';

export type UserRow = typeof users.$inferSelect;

type Scoped = { id: number; role: Role };

/**
 * Who a caller may see and act on (docs/product/roles-and-scope.md#scope), as a condition on `users`:
 * admin everyone; superagent S itself, its agents and the users under S or S's agents;
 * agent A itself and its direct users; a user only itself. Deleted users are never in scope.
 */
/** The hierarchy a game was played under, copied onto its row when it was played. */
export type RecordedHierarchy = { userId: Column; parentId: Column; superagentId: Column };

/**
 * Who may read a record kept with the hierarchy it was played under (a game, a sale): admin all,
 * the superagent and the parent recorded with it, the player. It judges by the recorded hierarchy,
 * so after a player moves, the new parent does not see games played under the old one.
 */
export function readableByRecord(caller: Scoped, record: RecordedHierarchy): SQL | undefined {
  switch (caller.role) {
    case 'admin':
      return undefined;
    case 'superagent':
      return eq(record.superagentId, caller.id);
    case 'agent':
      return eq(record.parentId, caller.id);
    default:
      return eq(record.userId, caller.id);
  }
}

export function scopeCondition(caller: Scoped): SQL {
  const live = isNull(users.deletedAt);
  switch (caller.role) {
    case 'admin':
      return live;
    case 'superagent':
      return and(
        live,
        sql`(${users.id} = ${caller.id} OR ${users.parentId} = ${caller.id} OR ${users.parentId} IN (
          SELECT a.id FROM users a WHERE a.parent_id = ${caller.id} AND a.role = 'agent'))`,
      ) as SQL;
    case 'agent':
      return and(live, sql`(${users.id} = ${caller.id} OR ${users.parentId} = ${caller.id})`) as SQL;
    default:
      return and(live, eq(users.id, caller.id)) as SQL;
  }
}

export async function findLiveUserById(db: Db | Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return row;
}

export async function findLiveUserByUsername(db: Db | Tx, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, isNull(users.deletedAt)));
  return row;
}

/** The user with this id if the caller may reach it; `lock` takes a row lock for the transaction. */
export async function findInScope(
  db: Db | Tx,
  caller: Scoped,
  id: number,
  lock?: 'update' | 'share',
): Promise<UserRow | undefined> {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), scopeCondition(caller)));
  const [row] = lock ? await query.for(lock === 'update' ? 'update' : 'share') : await query;
  return row;
}
