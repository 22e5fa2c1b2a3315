import { createHash, randomInt } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import type { Role } from '@lot/domain/roles';
import type { TwoFactorEnabled, TwoFactorEnrolment, TwoFactorPolicy, TwoFactorStatus } from '@lot/domain/schemas/auth';
import type { Db } from '../../db/client.ts';
import { recoveryCodes, sessions, twoFactorRoles, userTwoFactor } from '../../db/schema.ts';
import { callerChanged, sessionsChanged } from '../../lib/caller-lookup.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { endSessions } from '../../lib/sessions.ts';
import { recordAudit } from '../../lib/audit.ts';

/** An audit row about the user's own sign-in settings (decision 029). */
const ownChange = (user: Who) => ({
  actorId: user.id,
  address: user.address ?? null,
  targetKind: 'user' as const,
  targetId: user.id,
  targetUserId: user.id,
});

const ISSUER = 'LOT';
/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 s. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after is taken too (clocks drift, people type slowly). */
const WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
/** Recovery codes are 16 letters and digits from 31 (over 79 bits), shown in groups of four. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const SIX_DIGITS = /^\d{6}$/;

/** The user a two-factor call is about; `address`: where the request came from (for the audit trail). */
type Who = { id: number; username: string; role: Role; address?: string };

/**
 * Two-factor sign-in with TOTP (RFC 6238, decision 028): the secret is kept encrypted under
 * TOTP_KEY; a code is taken once (its time step is remembered, a replay is refused); recovery
 * codes are kept as hashes and each is taken once. `now` is the clock (tests move it).
 */
export class TwoFactor {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    key: string,
    private readonly now: () => number = Date.now,
  ) {
    this.box = new SecretBox(key);
  }

  async status(user: Who): Promise<TwoFactorStatus> {
    const [row] = await this.db
      .select({ enabledAt: userTwoFactor.enabledAt })
      .from(userTwoFactor)
      .where(eq(userTwoFactor.userId, user.id));
    const [left] = await this.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
    return {
      enabled: Boolean(row?.enabledAt),
      required: await this.roleRequires(user.role),
      recoveryCodesLeft: row?.enabledAt ? (left?.n ?? 0) : 0,
    };
  }

  async isEnabled(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: userTwoFactor.userId })
      .from(userTwoFactor)
      .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
    return Boolean(row);
  }

  async roleRequires(role: Role): Promise<boolean> {
    const [row] = await this.db.select().from(twoFactorRoles).where(eq(twoFactorRoles.role, role));
    return Boolean(row);
  }

  /** A new secret, waiting for its first code; a set-up started before is replaced. */
  async startEnrolment(user: Who): Promise<TwoFactorEnrolment> {
    const secret = new Secret({ size: 20 });
    const [row] = await this.db
      .insert(userTwoFactor)
      .values({ userId: user.id, secret: this.box.seal(secret.base32, context(user.id)) })
      .onConflictDoUpdate({
        target: userTwoFactor.userId,
        set: { secret: sql`excluded.secret`, lastStep: null, createdAt: sql`now()` },
        // Never replaces a secret in use.
        setWhere: isNull(userTwoFactor.enabledAt),
      })
      .returning({ userId: userTwoFactor.userId });
    if (!row) throw new AppError('CONFLICT', MESSAGES.twoFactorAlreadyOn);
    return { secret: secret.base32, uri: totpFor(user.username, secret).toString() };
  }

  /**
   * The first code confirms the set-up: two-factor sign-in is on, ten recovery codes are made (and
   * shown this once), and the caller's other sessions end. The session that set it up goes on,
   * free of the set-up-only limit.
   */
  async confirmEnrolment(user: Who, sessionId: string, code: string): Promise<TwoFactorEnabled> {
    const [row] = await this.db
      .select()
      .from(userTwoFactor)
      .where(and(eq(userTwoFactor.userId, user.id), isNull(userTwoFactor.enabledAt)));
    if (!row) {
      if (await this.isEnabled(user.id)) throw new AppError('CONFLICT', MESSAGES.twoFactorAlreadyOn);
      throw new AppError('CONFLICT', MESSAGES.twoFactorNoEnrolment);
    }
    const step = this.stepOf(user, row.secret, code);
    if (step === undefined) throw AppError.field('code', MESSAGES.twoFactorCodeInvalid);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const enabled = await this.db.transaction(async (tx) => {
      const [on] = await tx
        .update(userTwoFactor)
        .set({ enabledAt: sql`now()`, lastStep: step })
        .where(
          and(eq(userTwoFactor.userId, user.id), isNull(userTwoFactor.enabledAt), eq(userTwoFactor.secret, row.secret)),
        )
        .returning({ userId: userTwoFactor.userId });
      if (!on) return false;
      await recordAudit(tx, { ...ownChange(user), action: 'auth.2fa_enrolled' });
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: hashRecoveryCode(c) })));
      await tx.update(sessions).set({ enrolRequired: false }).where(eq(sessions.id, sessionId));
      return true;
    });
    // A concurrent confirmation (or a new set-up) got there first.
    if (!enabled) throw new AppError('CONFLICT', MESSAGES.twoFactorNoEnrolment);
    sessionsChanged(this.db, [sessionId]);
    await endSessions(this.db, user.id, { except: sessionId });
    callerChanged(this.db, user.id);
    return { message: MESSAGES.twoFactorEnabled, recoveryCodes: codes };
  }

  /** Turns it off with a code (or a recovery code); refused while the role requires it. */
  async disable(user: Who, sessionId: string, code: string): Promise<{ message: string }> {
    if (await this.roleRequires(user.role)) throw new AppError('CONFLICT', MESSAGES.twoFactorRequiredByRole);
    if (!(await this.isEnabled(user.id))) throw new AppError('CONFLICT', MESSAGES.twoFactorNotOn);
    if (!(await this.takeCode(user, code))) throw AppError.field('code', MESSAGES.twoFactorCodeInvalid);
    await this.db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
      await recordAudit(tx, { ...ownChange(user), action: 'auth.2fa_disabled' });
    });
    await endSessions(this.db, user.id, { except: sessionId });
    callerChanged(this.db, user.id);
    return { message: MESSAGES.twoFactorDisabled };
  }

  /**
   * Takes a code for the user: a TOTP code of the current step (± one) not older than the last
   * one taken, or an unused recovery code. Each is taken by one conditional UPDATE, so of two
   * requests with the same code only one succeeds.
   */
  async takeCode(user: Who, code: string): Promise<boolean> {
    const compact = code.replace(/[\s-]/g, '').toLowerCase();
    if (SIX_DIGITS.test(compact)) {
      const [row] = await this.db
        .select()
        .from(userTwoFactor)
        .where(and(eq(userTwoFactor.userId, user.id), isNotNull(userTwoFactor.enabledAt)));
      const step = row ? this.stepOf(user, row.secret, compact) : undefined;
      if (step === undefined) return false;
      const taken = await this.db
        .update(userTwoFactor)
        .set({ lastStep: step })
        .where(
          and(
            eq(userTwoFactor.userId, user.id),
            isNotNull(userTwoFactor.enabledAt),
            or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step)),
          ),
        )
        .returning({ userId: userTwoFactor.userId });
      return taken.length > 0;
    }
    const taken = await this.db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(recoveryCodes.userId, user.id),
          eq(recoveryCodes.codeHash, hashRecoveryCode(compact)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return taken.length > 0;
  }

  async policy(): Promise<TwoFactorPolicy> {
    const rows = await this.db.select().from(twoFactorRoles).orderBy(twoFactorRoles.role);
    return { roles: rows.map((row) => row.role) };
  }

  /** Applies to sign-ins from now on: a session already open goes on as it is. */
  async setPolicy(admin: Who, policy: TwoFactorPolicy): Promise<TwoFactorPolicy & { message: string }> {
    const roles = [...new Set(policy.roles)].sort();
    await this.db.transaction(async (tx) => {
      const before = await tx.delete(twoFactorRoles).returning({ role: twoFactorRoles.role });
      if (roles.length > 0) await tx.insert(twoFactorRoles).values(roles.map((role) => ({ role })));
      await recordAudit(tx, {
        actorId: admin.id,
        address: admin.address ?? null,
        action: 'auth.2fa_policy_changed',
        details: { changes: { roles: { from: before.map((row) => row.role).sort(), to: roles } } },
      });
    });
    return { ...(await this.policy()), message: MESSAGES.twoFactorPolicySaved };
  }

  /** The time step the code belongs to, if it is right for the sealed secret (within the window). */
  private stepOf(user: Who, sealed: string, code: string): number | undefined {
    const compact = code.replace(/\s/g, '');
    if (!SIX_DIGITS.test(compact)) return undefined;
    const secret = Secret.fromBase32(this.box.open(sealed, context(user.id)));
    const timestamp = this.now();
    const delta = totpFor(user.username, secret).validate({ token: compact, timestamp, window: WINDOW });
    if (delta === null) return undefined;
    return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }
}

/** The sealed secret names its user: a secret copied onto another user's row does not open there. */
function context(userId: number): string {
  return `user_two_factor:${userId}`;
}

function totpFor(username: string, secret: Secret): TOTP {
  return new TOTP({ issuer: ISSUER, label: username, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret });
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/** Codes are random (over 79 bits), so a plain SHA-256 is enough: nothing to guess from it. */
function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}
