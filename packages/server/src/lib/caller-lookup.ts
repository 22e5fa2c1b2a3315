import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { PgListener } from './listener.ts';

/** Where a change of a user is announced (migration 0010: a trigger on `users`). */
export const USERS_CHANNEL = 'lot_users';

/** A cached caller is read again at the latest after this, even if no change was heard. */
const MAX_AGE_MS = 60_000;
/** Beyond this many cached callers the cache starts over (a bound, not an eviction policy). */
const MAX_ENTRIES = 50_000;

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

export type CallerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof prepareCallerLookup>['execute']>>[number]>;

/** Every app's lookup on a database (tests may build several apps on one). */
const lookups = new WeakMap<Db, Set<CallerLookup>>();

/**
 * A change of the user `id` committed through this process (a password, a status, a deletion):
 * its cached caller goes now, before the answer leaves, so the very next request of any client of
 * this process sees it; other processes hear it from the database's notification.
 */
export function callerChanged(db: Db, id: number): void {
  for (const lookup of lookups.get(db) ?? []) lookup.changed(id);
}

/**
 * The caller behind each request (decision 025). On PostgreSQL each process keeps the callers it
 * has read, and forgets one as soon as its process hears the `users` row changed (a NOTIFY the
 * database sends on commit, so a password change, a deactivation or a deletion reaches every
 * process within milliseconds); while the LISTEN connection is down nothing is kept. A read that
 * overlapped a change of its user (or a gap in listening) is not kept either, so a row read before
 * a change cannot outlive it. PGlite is one process's database, in process: every request reads.
 */
export class CallerLookup {
  private readonly lookup;
  /** Stops hearing `callerChanged` for this database (the app closed). */
  readonly unbind: () => void;
  private readonly cache = new Map<number, { row: CallerRow; at: number }>();
  /** The `changes` count when each user last changed, and when listening last had a gap. */
  private readonly changedAt = new Map<number, number>();
  private gapAt = 0;
  private changes = 0;

  constructor(
    db: Db,
    private readonly listener: PgListener | undefined,
  ) {
    this.lookup = prepareCallerLookup(db);
    listener?.on(USERS_CHANNEL, (payload) => this.changed(Number(payload)));
    const mine = lookups.get(db) ?? new Set();
    lookups.set(db, mine.add(this));
    this.unbind = () => mine.delete(this);
    listener?.onGap(() => {
      this.gapAt = ++this.changes;
      this.cache.clear();
    });
  }

  async find(id: number): Promise<CallerRow | undefined> {
    const kept = this.listener?.live ? this.cache.get(id) : undefined;
    if (kept && Date.now() - kept.at < MAX_AGE_MS) return kept.row;
    const before = this.changes;
    const [row] = await this.lookup.execute({ id });
    const unchanged = (this.changedAt.get(id) ?? 0) <= before && this.gapAt <= before;
    if (row && this.listener?.live && unchanged) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(id, { row, at: Date.now() });
    }
    return row;
  }

  /** The user changed: heard from the database, or said at once by this process after its own commit. */
  changed(id: number): void {
    this.changedAt.set(id, ++this.changes);
    this.cache.delete(id);
  }
}
