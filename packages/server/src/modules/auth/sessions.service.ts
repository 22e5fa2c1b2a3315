import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import type { Session } from '@lot/domain/schemas/auth';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';
import { describeDevice } from '../../lib/device.ts';
import { endSessions } from '../../lib/sessions.ts';

/** More open sessions than this are not listed (they can still all be ended at once). */
const LIST_LIMIT = 100;

/** The caller's active sessions (not ended, token not expired): this one first, then the most recently used. */
export async function listSessions(db: Db, userId: number, currentId: string): Promise<Session[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sql`${sessions.id} = ${currentId}`), desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === currentId,
  }));
}

/** Ends one of the caller's sessions (its own too: that is signing out); another's is a 404. */
export async function endSession(db: Db, userId: number, sessionId: string): Promise<{ message: string }> {
  const ended = await endSessions(db, userId, { only: sessionId });
  if (ended.length === 0) throw new AppError('NOT_FOUND', MESSAGES.notFound);
  return { message: MESSAGES.sessionEnded };
}

export async function endOtherSessions(db: Db, userId: number, currentId: string): Promise<{ message: string }> {
  await endSessions(db, userId, { except: currentId });
  return { message: MESSAGES.otherSessionsEnded };
}

export async function signout(db: Db, userId: number, currentId: string): Promise<{ message: string }> {
  await endSessions(db, userId, { only: currentId });
  return { message: MESSAGES.signedOut };
}
