import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { verify } from '@node-rs/argon2';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import type { ChangePasswordInput, SigninInput, SigninResponse } from '@lot/domain/schemas/auth';
import type { Db, Tx } from '../../db/client.ts';
import { signinFailures, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { findLiveUserById, findLiveUserByUsername } from '../users/users.repository.ts';
import { ARGON2_OPTIONS, hashPassword } from '../../lib/passwords.ts';
import { callerChanged } from '../../lib/caller-lookup.ts';
import { recordAudit } from '../../lib/audit.ts';

/** A refused sign-in is itself an action the audit trail keeps (decision 029): no actor, chain 0. */
function auditFailure(db: Db | Tx, username: string, address: string, reason: string, userId?: number) {
  return recordAudit(db, {
    actorId: null,
    address,
    action: 'auth.signin_failed',
    targetKind: userId === undefined ? undefined : 'user',
    targetId: userId ?? null,
    targetUserId: userId ?? null,
    details: { username, reason },
  });
}

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_SECONDS = 15 * 60;

type SignToken = (user: { id: number; tokenVersion: number }) => string;

/** Verifying against a fixed hash when the user does not exist keeps the timing the same. */
let dummyHash: Promise<string> | undefined;

/**
 * Failed attempts for one username from one address in the window, kept in the database so the
 * limit holds across API processes and restarts. The attempt is recorded as failed before the
 * count, so attempts sent all at once cannot all pass the check before any of them is recorded:
 * the last to count sees them all. A throttled attempt takes its record back and does no hashing.
 * Returns the id of the record, for a good password to take back.
 */
async function recordAttempt(db: Db, username: string, address: string): Promise<number> {
  const [attempt] = await db.insert(signinFailures).values({ username, address }).returning({ id: signinFailures.id });
  if (!attempt) throw new Error('insert returned no row');
  const window = sql`make_interval(secs => ${FAILURE_WINDOW_SECONDS})`;
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      retryAfter: sql<
        number | null
      >`ceil(extract(epoch from min(${signinFailures.createdAt}) + ${window} - now()))::int`,
    })
    .from(signinFailures)
    .where(
      and(
        eq(signinFailures.username, username),
        eq(signinFailures.address, address),
        gt(signinFailures.createdAt, sql`now() - ${window}`),
      ),
    );
  // The count includes this attempt.
  if (!row || row.count <= MAX_FAILURES) return attempt.id;
  await forgetAttempt(db, attempt.id);
  throw new AppError('RATE_LIMITED', MESSAGES.tooManyAttempts, { retryAfter: Math.max(1, row.retryAfter ?? 1) });
}

async function forgetAttempt(db: Db | Tx, id: number): Promise<void> {
  await db.delete(signinFailures).where(eq(signinFailures.id, id));
}

/** Keep the table small: rows older than the window no longer count. */
async function pruneFailures(db: Db, username: string): Promise<void> {
  await db
    .delete(signinFailures)
    .where(
      and(
        eq(signinFailures.username, username),
        lt(signinFailures.createdAt, sql`now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS})`),
      ),
    );
}

export async function signin(
  db: Db,
  signToken: SignToken,
  input: SigninInput,
  address: string,
): Promise<SigninResponse> {
  const key = input.username.toLowerCase();
  const attempt = await recordAttempt(db, key, address).catch(async (error: unknown) => {
    if (error instanceof AppError) await auditFailure(db, key, address, 'throttled');
    throw error;
  });
  const user = await findLiveUserByUsername(db, input.username);
  dummyHash ??= hashPassword('not-a-real-password');
  const valid = await verify(user?.passwordHash ?? (await dummyHash), input.password, ARGON2_OPTIONS).catch(
    () => false,
  );
  if (!user || !valid) {
    await pruneFailures(db, key);
    await auditFailure(db, key, address, user ? 'wrong password' : 'unknown username', user?.id);
    throw new AppError('UNAUTHORIZED', MESSAGES.invalidCredentials);
  }
  if (user.status !== 'active') {
    await db.transaction(async (tx) => {
      await forgetAttempt(tx, attempt);
      await auditFailure(tx, key, address, 'inactive', user.id);
    });
    throw new AppError('FORBIDDEN', MESSAGES.accountInactive);
  }
  await db.transaction(async (tx) => {
    await tx.delete(signinFailures).where(and(eq(signinFailures.username, key), eq(signinFailures.address, address)));
    await recordAudit(tx, {
      actorId: user.id,
      address,
      action: 'auth.signin',
      targetKind: 'user',
      targetId: user.id,
      targetUserId: user.id,
    });
  });
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    shopName: user.shopName,
    hasLogo: user.hasLogo,
    role: user.role,
    parentId: user.parentId,
    accessToken: signToken(user),
    message: 'Login successful',
  };
}

/**
 * Changing the password ends every older token (the version moves on); the caller's own session
 * goes on with the fresh token returned here. Wrong current passwords count as failed sign-ins.
 */
export async function changePassword(
  db: Db,
  signToken: SignToken,
  caller: Caller,
  input: ChangePasswordInput,
  address: string,
): Promise<{ message: string; accessToken: string }> {
  const key = caller.username.toLowerCase();
  const attempt = await recordAttempt(db, key, address);
  const user = await findLiveUserById(db, caller.id);
  if (!user) throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
  if (!(await verify(user.passwordHash, input.currentPassword, ARGON2_OPTIONS).catch(() => false))) {
    await pruneFailures(db, key);
    throw new AppError('VALIDATION_ERROR', MESSAGES.currentPasswordWrong, {
      fieldErrors: { currentPassword: MESSAGES.currentPasswordWrong },
    });
  }
  await forgetAttempt(db, attempt);
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id))
      .returning({ id: users.id, tokenVersion: users.tokenVersion });
    if (!row) throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
    await recordAudit(tx, {
      actorId: caller.id,
      address,
      action: 'auth.password_changed',
      targetKind: 'user',
      targetId: caller.id,
      targetUserId: caller.id,
    });
    return row;
  });
  callerChanged(db, updated.id);
  return { message: MESSAGES.passwordChanged, accessToken: signToken(updated) };
}
