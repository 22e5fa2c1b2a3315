import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { PgListener } from './listener.ts';

/** Where a change of a user is announced (migration 0010: a trigger on `users`). */
export const USERS_CHANNEL = 'lot_users';
/** Where an ended session is announced (migration 0011: a trigger on `sessions`, decision 028). */
export const SESSIONS_CHANNEL = 'lot_sessions';

/** A session's "last used" is written at most this often, not on every request. */
export const TOUCH_INTERVAL_MS = 60_000;

/** A cached caller is read again at the latest after this, even if no change was heard. */
const MAX_AGE_MS = 60_000;
/** Beyond this many cached callers the cache starts over (a bound, not an eviction policy). */
const MAX_ENTRIES = 50_000;

/**
 * What the auth check needs of the caller and the token's session, on every authenticated request:
 * built once per database as a prepared statement (PostgreSQL parses and plans it once per connection;
 * a database opened with `prepared: false` sends it unnamed, db/prepared.ts).
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
      sessionId: sessions.id,
      sessionEnded: sql<boolean>`${sessions.endedAt} IS NOT NULL`,
      enrolRequired: sessions.enrolRequired,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(users)
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .where(
      and(eq(users.id, sql.placeholder('id')), eq(sessions.id, sql.placeholder('sessionId')), isNull(users.deletedAt)),
    )
    .prepare('find_live_caller_session');
}

export type CallerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof prepareCallerLookup>['execute']>>[number]>;

/**
 * The caller behind each request (decision 025). On PostgreSQL each process keeps the callers it
 * has read, and forgets one as soon as its process hears the `users` row changed (a NOTIFY the
 * database sends on commit, so a password change, a deactivation or a deletion reaches every
 * process within milliseconds); while the LISTEN connection is down nothing is kept. A read that
 * overlapped a change of its user (or a gap in listening) is not kept either, so a row read before
 * a change cannot outlive it. A change committed through this process is told at once
 * (`changed`, `sessionChanged`: the app wires its context's events to them), before the answer
 * leaves. PGlite is one process's database, in process: every request reads.
 */
export class CallerLookup {
  private readonly lookup;
  private readonly db: Db;
  /** Kept rows by session id, and each user's kept sessions (a change of the user drops them all). */
  private readonly cache = new Map<string, { row: CallerRow; at: number }>();
  private readonly sessionsOf = new Map<number, Set<string>>();
  /** The `changes` count when each user or session last changed, and when listening last had a gap. */
  private readonly changedAt = new Map<number, number>();
  private readonly sessionChangedAt = new Map<string, number>();
  private gapAt = 0;
  private changes = 0;

  constructor(
    db: Db,
    private readonly listener: PgListener | undefined,
    /** The app's clock (its context's): a kept caller's age and a session's last use. */
    private readonly clock: Clock,
  ) {
    this.db = db;
    this.lookup = prepareCallerLookup(db);
    listener?.on(USERS_CHANNEL, (payload) => this.changed(Number(payload)));
    listener?.on(SESSIONS_CHANNEL, (payload) => this.sessionChanged(payload));
    listener?.onGap(() => {
      this.gapAt = ++this.changes;
      this.clear();
    });
  }

  /** The live user `id` with its session `sessionId` (ended or not: the caller decides). */
  async find(id: number, sessionId: string): Promise<CallerRow | undefined> {
    const kept = this.listener?.live ? this.cache.get(sessionId) : undefined;
    if (kept && kept.row.id === id && this.clock() - kept.at < MAX_AGE_MS) return kept.row;
    const before = this.changes;
    const [row] = await this.lookup.execute({ id, sessionId });
    const unchanged =
      (this.changedAt.get(id) ?? 0) <= before &&
      (this.sessionChangedAt.get(sessionId) ?? 0) <= before &&
      this.gapAt <= before;
    if (row && this.listener?.live && unchanged) {
      if (this.cache.size >= MAX_ENTRIES) this.clear();
      this.cache.set(sessionId, { row, at: this.clock() });
      this.sessionsOf.set(id, (this.sessionsOf.get(id) ?? new Set()).add(sessionId));
    }
    return row;
  }

  /**
   * Notes that the session was used now: written at most once a minute per session (the row says
   * when it was last written), so a request costs no write. Not announced: nothing to forget.
   */
  async touch(row: CallerRow): Promise<void> {
    const now = this.clock();
    if (now - row.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
    row.lastUsedAt = new Date(now);
    await this.db
      .update(sessions)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(sessions.id, row.sessionId), lt(sessions.lastUsedAt, sql`now() - interval '1 minute'`)));
  }

  /** The user changed: heard from the database, or said at once by this process after its own commit. */
  changed(id: number): void {
    this.forgetOldChanges();
    this.changedAt.set(id, ++this.changes);
    for (const sessionId of this.sessionsOf.get(id) ?? []) this.cache.delete(sessionId);
    this.sessionsOf.delete(id);
  }

  /** The session ended (or its set-up was done): heard from the database, or said by this process. */
  sessionChanged(sessionId: string): void {
    this.forgetOldChanges();
    this.sessionChangedAt.set(sessionId, ++this.changes);
    this.cache.delete(sessionId);
  }

  /**
   * The change counts only matter to reads in flight; past a bound they go, and count as a gap, so
   * no read that began before is kept (a bound on memory over a long run of ended sessions).
   */
  private forgetOldChanges(): void {
    if (this.changedAt.size + this.sessionChangedAt.size < MAX_ENTRIES) return;
    this.changedAt.clear();
    this.sessionChangedAt.clear();
    this.gapAt = ++this.changes;
  }

  private clear(): void {
    this.cache.clear();
    this.sessionsOf.clear();
  }
}
