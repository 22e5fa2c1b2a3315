import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { Session } from '@lot/domain/schemas/auth';
import type { Context } from '../../lib/context.ts';
import { describeDevice } from '../../lib/device.ts';
import { endSessions } from '../../lib/sessions.ts';
import { listActiveSessions } from './auth.repository.ts';

/** More open sessions than this are not listed (they can still all be ended at once). */
const LIST_LIMIT = 100;

/** The caller's active sessions (not ended, token not expired): this one first, then the most recently used. */
export async function listSessions(ctx: Context, currentId: string): Promise<Session[]> {
  const rows = await listActiveSessions(ctx.db, ctx.caller.id, currentId, LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === currentId,
  }));
}

/** Ends the caller's sessions and tells this process's caller cache at once (other processes hear the trigger). */
async function end(ctx: Context, which: Parameters<typeof endSessions>[2]): Promise<string[]> {
  const ended = await endSessions(ctx.db, ctx.caller.id, which);
  ctx.events.sessionsChanged(ended);
  return ended;
}

/** Ends one of the caller's sessions (its own too: that is signing out); another's is a 404. */
export async function endSession(ctx: Context, sessionId: string): Promise<{ message: string }> {
  const ended = await end(ctx, { only: sessionId });
  if (ended.length === 0) throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
  return { message: MESSAGES.sessionEnded };
}

export async function endOtherSessions(ctx: Context, currentId: string): Promise<{ message: string }> {
  await end(ctx, { except: currentId });
  return { message: MESSAGES.otherSessionsEnded };
}

export async function signout(ctx: Context, currentId: string): Promise<{ message: string }> {
  await end(ctx, { only: currentId });
  return { message: SERVER_MESSAGES.signedOut };
}
