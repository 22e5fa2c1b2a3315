import { verify } from '@node-rs/argon2';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { usernameKey } from '@lot/domain/username-key';
import type {
  ChangePasswordInput,
  SessionResponse,
  SigninAnswer,
  SigninCodeInput,
  SigninInput,
  TwoFactorChallenge,
} from '@lot/domain/schemas/auth';
import type { SessionOrigin } from '../../lib/caller.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import type { Tokens } from '../../lib/tokens.ts';
import { findLiveUserById, findLiveUserByUsername } from '../users/users.repository.ts';
import { ARGON2_OPTIONS, hashPassword } from '../../lib/passwords.ts';
import { endSessions } from '../../lib/sessions.ts';
import { recordAudit } from '../../lib/audit.ts';
import {
  clearSigninFailures,
  countRecentFailures,
  deleteSigninFailure,
  insertSigninFailure,
  pruneSigninFailures,
  updatePassword,
  type Db,
  type Tx,
} from './auth.repository.ts';
import { isTwoFactorEnabled, takeCode, twoFactorRequiredFor, disableOwnTwoFactor } from './two-factor.service.ts';

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

type UserRow = NonNullable<Awaited<ReturnType<typeof findLiveUserById>>>;

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
  const attempt = await insertSigninFailure(db, username, address);
  const row = await countRecentFailures(db, username, address, FAILURE_WINDOW_SECONDS);
  // The count includes this attempt.
  if (!row || row.count <= MAX_FAILURES) return attempt;
  await forgetAttempt(db, attempt);
  throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyAttempts, { retryAfter: Math.max(1, row.retryAfter ?? 1) });
}

function forgetAttempt(db: Db | Tx, id: number): Promise<void> {
  return deleteSigninFailure(db, id);
}

/** Keep the table small: rows older than the window no longer count. */
function pruneFailures(db: Db, username: string): Promise<void> {
  return pruneSigninFailures(db, username, FAILURE_WINDOW_SECONDS);
}

/** How a refused sign-in is counted (GET /metrics). */
function signinOutcome(error: unknown): string {
  if (!(error instanceof AppError)) return 'error';
  if (error.code === 'RATE_LIMITED') return 'throttled';
  if (error.code === 'UNAUTHORIZED') return 'failed';
  return 'refused';
}

/** A sign-in step, counted by its outcome in `ctx.metrics.signins` (decision 026). */
async function countSignin<T>(ctx: AppContext, step: Promise<T>, outcome: (answer: T) => string): Promise<T> {
  try {
    const answer = await step;
    ctx.metrics.signins.inc({ outcome: outcome(answer) });
    return answer;
  } catch (error) {
    ctx.metrics.signins.inc({ outcome: signinOutcome(error) });
    throw error;
  }
}

export function signin(ctx: Context<null>, input: SigninInput, origin: SessionOrigin): Promise<SigninAnswer> {
  return countSignin(ctx, signinUncounted(ctx, input, origin), (answer) =>
    'twoFactorRequired' in answer ? 'code_needed' : 'ok',
  );
}

async function signinUncounted(ctx: AppContext, input: SigninInput, origin: SessionOrigin): Promise<SigninAnswer> {
  const { db } = ctx;
  const { address } = origin;
  // The throttle counts a username as people read it: `admİn` and `ADMIN` are admin (decision 047).
  const key = usernameKey(input.username);
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
    throw new AppError('UNAUTHORIZED', SERVER_MESSAGES.invalidCredentials);
  }
  if (user.status !== 'active') {
    await db.transaction(async (tx) => {
      await forgetAttempt(tx, attempt);
      await auditFailure(tx, key, address, 'inactive', user.id);
    });
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.accountInactive);
  }
  if (await isTwoFactorEnabled(ctx, user.id)) {
    // The password was right, the code is still to come: this attempt is not a failure, but the
    // earlier ones stay, so wrong codes and wrong passwords count together (decision 028).
    await forgetAttempt(db, attempt);
    return twoFactorChallenge(ctx.tokens, user);
  }
  return openUserSession(ctx, user, origin, { enrol: await twoFactorRequiredFor(ctx, user.role) });
}

function twoFactorChallenge(tokens: Tokens, user: UserRow): TwoFactorChallenge {
  return { twoFactorRequired: true, challenge: tokens.signChallenge(user), message: MESSAGES.twoFactorCodeNeeded };
}

/**
 * A new session, in one transaction with its audit row and the end of the failures counted
 * against the username from this address. `enrol`: the role requires two-factor sign-in and the
 * user has none yet; `withCode`: the second step of a sign-in with two-factor.
 */
async function openUserSession(
  ctx: AppContext,
  user: UserRow,
  origin: SessionOrigin,
  { enrol = false, withCode = false }: { enrol?: boolean; withCode?: boolean },
): Promise<SessionResponse> {
  const { db, tokens } = ctx;
  const accessToken = await db.transaction(async (tx) => {
    await clearSigninFailures(tx, usernameKey(user.username), origin.address);
    await recordAudit(tx, {
      actorId: user.id,
      address: origin.address,
      action: 'auth.signin',
      targetKind: 'user',
      targetId: user.id,
      targetUserId: user.id,
      details: withCode ? { twoFactor: true } : {},
    });
    return tokens.openSession(user, { ...origin, enrolRequired: enrol }, tx);
  });
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    shopName: user.shopName,
    hasLogo: user.hasLogo,
    role: user.role,
    parentId: user.parentId,
    accessToken,
    message: SERVER_MESSAGES.loginSuccessful,
    ...(enrol ? { enrolTwoFactor: true as const } : {}),
  };
}

/**
 * The second step of a sign-in with two-factor: the challenge from the first step and a code from
 * the authenticator app or a recovery code. Counted by the same throttle as passwords.
 */
export function signinWithCode(
  ctx: Context<null>,
  input: SigninCodeInput,
  origin: SessionOrigin,
): Promise<SessionResponse> {
  return countSignin(ctx, signinWithCodeUncounted(ctx, input, origin), () => 'ok');
}

async function signinWithCodeUncounted(
  ctx: AppContext,
  input: SigninCodeInput,
  origin: SessionOrigin,
): Promise<SessionResponse> {
  const { db } = ctx;
  const claim = ctx.tokens.verifyChallenge(input.challenge);
  const user = await findLiveUserById(db, claim.id);
  // A password change (or deactivation, deletion) since the first step ends its challenge too.
  if (!user || user.tokenVersion !== claim.tokenVersion) {
    throw new AppError('UNAUTHORIZED', MESSAGES.twoFactorChallengeExpired);
  }
  const key = usernameKey(user.username);
  const attempt = await recordAttempt(db, key, origin.address).catch(async (error: unknown) => {
    if (error instanceof AppError) await auditFailure(db, key, origin.address, 'throttled', user.id);
    throw error;
  });
  if (user.status !== 'active') {
    await db.transaction(async (tx) => {
      await forgetAttempt(tx, attempt);
      await auditFailure(tx, key, origin.address, 'inactive', user.id);
    });
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.accountInactive);
  }
  if (!(await takeCode(ctx, user, input.code))) {
    await pruneFailures(db, key);
    await auditFailure(db, key, origin.address, 'wrong code', user.id);
    throw new AppError('UNAUTHORIZED', MESSAGES.twoFactorCodeInvalid);
  }
  return openUserSession(ctx, user, origin, { withCode: true });
}

/**
 * Turning two-factor sign-in off takes a code; a wrong one counts as a failed sign-in, so a
 * session left open somewhere cannot be used to guess codes.
 */
export async function disableTwoFactor(ctx: Context, sessionId: string, code: string): Promise<{ message: string }> {
  const { db, caller } = ctx;
  const address = caller.address ?? '';
  const key = usernameKey(caller.username);
  const attempt = await recordAttempt(db, key, address);
  try {
    const answer = await disableOwnTwoFactor(ctx, caller, sessionId, code);
    await forgetAttempt(db, attempt);
    return answer;
  } catch (error) {
    // Only a wrong code is a failure.
    if (!(error instanceof AppError && error.code === 'VALIDATION_ERROR')) await forgetAttempt(db, attempt);
    else await pruneFailures(db, key);
    throw error;
  }
}

/**
 * Changing the password ends every older token (the version moves on) and the other sessions; the
 * caller's own session goes on with the fresh token returned here. Wrong current passwords count
 * as failed sign-ins.
 */
export async function changePassword(
  ctx: Context,
  sessionId: string,
  input: ChangePasswordInput,
): Promise<{ message: string; accessToken: string }> {
  const { db, caller } = ctx;
  const address = caller.address ?? '';
  const key = usernameKey(caller.username);
  const attempt = await recordAttempt(db, key, address);
  const user = await findLiveUserById(db, caller.id);
  if (!user) throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
  if (!(await verify(user.passwordHash, input.currentPassword, ARGON2_OPTIONS).catch(() => false))) {
    await pruneFailures(db, key);
    throw new AppError('VALIDATION_ERROR', SERVER_MESSAGES.currentPasswordWrong, {
      fieldErrors: { currentPassword: SERVER_MESSAGES.currentPasswordWrong },
    });
  }
  await forgetAttempt(db, attempt);
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.transaction(async (tx) => {
    const row = await updatePassword(tx, user.id, passwordHash);
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
  ctx.events.callerChanged(updated.id);
  // The version already ends their tokens; ending the rows takes them off the list of sessions.
  ctx.events.sessionsChanged(await endSessions(db, updated.id, { except: sessionId }));
  return { message: MESSAGES.passwordChanged, accessToken: await ctx.tokens.signToken(updated, sessionId) };
}
