import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { sessions } from '../db/schema.ts';

/** A User-Agent is kept for the device description, not whole: a hostile one could be huge. */
const USER_AGENT_MAX = 400;

/** Opens a session for a sign-in (decision 028) and returns its id, which its tokens carry. */
export async function openSession(
  db: Db | Tx,
  userId: number,
  origin: { address: string; userAgent: string | undefined; enrolRequired?: boolean },
  lifetimeSeconds: number,
): Promise<string> {
  const id = randomUUID();
  await db.insert(sessions).values({
    id,
    userId,
    address: origin.address.slice(0, 100),
    userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    enrolRequired: origin.enrolRequired ?? false,
    expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})`,
  });
  return id;
}

/** A fresh token for the session: it is listed until that one expires. */
export async function extendSession(db: Db, sessionId: string, lifetimeSeconds: number): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` })
    .where(eq(sessions.id, sessionId));
}

/**
 * Ends the user's sessions: one (`only`), or all but one (`except`), or all, and answers their ids.
 * The caller tells this process's caller cache (`ctx.events.sessionsChanged`); other processes hear
 * it when the trigger's notification arrives (migration 0011).
 */
export async function endSessions(
  db: Db,
  userId: number,
  which: { only: string } | { except: string } | 'all',
): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        which === 'all' ? undefined : 'only' in which ? eq(sessions.id, which.only) : ne(sessions.id, which.except),
      ),
    )
    .returning({ id: sessions.id });
  return ended.map((row) => row.id);
}
