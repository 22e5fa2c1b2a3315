import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Role } from '@lot/domain/roles';
import type { Db, Tx } from '../../db/client.ts';
import { recoveryCodes, sessions, signinFailures, twoFactorRoles, users, userTwoFactor } from '../../db/schema.ts';

/** All the auth module's SQL: the sign-in throttle, passwords, two-factor rows and session lists. */

export type { Db, Tx };

// --- The sign-in throttle (failed attempts per username and address) ---

export async function insertSigninFailure(db: Db | Tx, username: string, address: string): Promise<number> {
  const [attempt] = await db.insert(signinFailures).values({ username, address }).returning({ id: signinFailures.id });
  if (!attempt) throw new Error('insert returned no row');
  return attempt.id;
}

/** Failures for the username from the address in the last `windowSeconds`, and the seconds until the oldest leaves it. */
export async function countRecentFailures(
  db: Db | Tx,
  username: string,
  address: string,
  windowSeconds: number,
): Promise<{ count: number; retryAfter: number | null } | undefined> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
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
  return row;
}

export async function deleteSigninFailure(db: Db | Tx, id: number): Promise<void> {
  await db.delete(signinFailures).where(eq(signinFailures.id, id));
}

/** Rows older than the window no longer count. */
export async function pruneSigninFailures(db: Db | Tx, username: string, windowSeconds: number): Promise<void> {
  await db
    .delete(signinFailures)
    .where(
      and(
        eq(signinFailures.username, username),
        lt(signinFailures.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
      ),
    );
}

export async function clearSigninFailures(db: Db | Tx, username: string, address: string): Promise<void> {
  await db
    .delete(signinFailures)
    .where(and(eq(signinFailures.username, username), eq(signinFailures.address, address)));
}

// --- Passwords ---

/** The new hash, and the token version moved on (older tokens end). */
export async function updatePassword(
  db: Db | Tx,
  userId: number,
  passwordHash: string,
): Promise<{ id: number; tokenVersion: number } | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
  return row;
}

// --- Two-factor (decision 028) ---

export async function findTwoFactorEnabledAt(
  db: Db | Tx,
  userId: number,
): Promise<{ enabledAt: Date | null } | undefined> {
  const [row] = await db
    .select({ enabledAt: userTwoFactor.enabledAt })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId));
  return row;
}

export async function countUnusedRecoveryCodes(db: Db | Tx, userId: number): Promise<number> {
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return left?.n ?? 0;
}

export async function isTwoFactorOn(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userTwoFactor.userId })
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
  return Boolean(row);
}

export async function roleRequiresTwoFactor(db: Db | Tx, role: Role): Promise<boolean> {
  const [row] = await db.select().from(twoFactorRoles).where(eq(twoFactorRoles.role, role));
  return Boolean(row);
}

/** Keeps a new sealed secret waiting for its first code; never replaces one in use (no row then). */
export async function upsertPendingSecret(db: Db | Tx, userId: number, sealed: string): Promise<boolean> {
  const [row] = await db
    .insert(userTwoFactor)
    .values({ userId, secret: sealed })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secret: sql`excluded.secret`, lastStep: null, createdAt: sql`now()` },
      // Never replaces a secret in use.
      setWhere: isNull(userTwoFactor.enabledAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return Boolean(row);
}

export async function findPendingSecret(db: Db | Tx, userId: number) {
  const [row] = await db
    .select()
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)));
  return row;
}

export async function findEnabledSecret(db: Db | Tx, userId: number) {
  const [row] = await db
    .select()
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
  return row;
}

/** Turns it on, if the pending secret is still this one (a concurrent confirmation gets nothing). */
export async function enableTwoFactor(db: Db | Tx, userId: number, secret: string, step: number): Promise<boolean> {
  const [on] = await db
    .update(userTwoFactor)
    .set({ enabledAt: sql`now()`, lastStep: step })
    .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt), eq(userTwoFactor.secret, secret)))
    .returning({ userId: userTwoFactor.userId });
  return Boolean(on);
}

export async function replaceRecoveryCodes(db: Db | Tx, userId: number, hashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

export async function clearEnrolRequired(db: Db | Tx, sessionId: string): Promise<void> {
  await db.update(sessions).set({ enrolRequired: false }).where(eq(sessions.id, sessionId));
}

export async function deleteTwoFactor(db: Db | Tx, userId: number): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
}

/** Takes the TOTP step if it is later than the last one taken (of two requests, one wins). */
export async function takeTotpStep(db: Db | Tx, userId: number, step: number): Promise<boolean> {
  const taken = await db
    .update(userTwoFactor)
    .set({ lastStep: step })
    .where(
      and(
        eq(userTwoFactor.userId, userId),
        isNotNull(userTwoFactor.enabledAt),
        or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return taken.length > 0;
}

/** Takes an unused recovery code by its hash (of two requests, one wins). */
export async function takeRecoveryCode(db: Db | Tx, userId: number, codeHash: string): Promise<boolean> {
  const taken = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return taken.length > 0;
}

export async function twoFactorRoleList(db: Db | Tx): Promise<Role[]> {
  const rows = await db.select().from(twoFactorRoles).orderBy(twoFactorRoles.role);
  return rows.map((row) => row.role);
}

/** Replaces the roles that require two-factor; answers the roles before. */
export async function replaceTwoFactorRoles(db: Db | Tx, roles: Role[]): Promise<Role[]> {
  const before = await db.delete(twoFactorRoles).returning({ role: twoFactorRoles.role });
  if (roles.length > 0) await db.insert(twoFactorRoles).values(roles.map((role) => ({ role })));
  return before.map((row) => row.role);
}

// --- Sessions (opened and ended in lib/sessions.ts, which the auth plugin shares) ---

/** The user's active sessions (not ended, not expired): `currentId` first, then the most recently used. */
export async function listActiveSessions(db: Db | Tx, userId: number, currentId: string, limit: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sql`${sessions.id} = ${currentId}`), desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .limit(limit);
}
