import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { Role } from '@lot/domain/roles';
import type { TwoFactorEnabled, TwoFactorEnrolment, TwoFactorPolicy, TwoFactorStatus } from '@lot/domain/schemas/auth';
import type { AppContext } from '../../lib/context.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { endSessions } from '../../lib/sessions.ts';
import { recordAudit } from '../../lib/audit.ts';
import {
  clearEnrolRequired,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  enableTwoFactor,
  findEnabledSecret,
  findPendingSecret,
  findTwoFactorEnabledAt,
  isTwoFactorOn,
  replaceRecoveryCodes,
  replaceTwoFactorRoles,
  roleRequiresTwoFactor,
  takeRecoveryCode,
  takeTotpStep,
  twoFactorRoleList,
  upsertPendingSecret,
} from './auth.repository.ts';

/**
 * Two-factor sign-in with TOTP (RFC 6238, decision 028): the secret is kept encrypted under
 * TOTP_KEY (`ctx.config.totpKey`); a code is taken once (its time step is remembered, a replay is
 * refused); recovery codes are kept as hashes and each is taken once. Codes are checked against
 * `ctx.clock` (tests move it).
 */

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
export type Who = { id: number; username: string; role: Role; address?: string };

export async function twoFactorStatus(ctx: AppContext, user: Who): Promise<TwoFactorStatus> {
  const row = await findTwoFactorEnabledAt(ctx.db, user.id);
  const left = await countUnusedRecoveryCodes(ctx.db, user.id);
  return {
    enabled: Boolean(row?.enabledAt),
    required: await roleRequiresTwoFactor(ctx.db, user.role),
    recoveryCodesLeft: row?.enabledAt ? left : 0,
  };
}

export function isTwoFactorEnabled(ctx: AppContext, userId: number): Promise<boolean> {
  return isTwoFactorOn(ctx.db, userId);
}

export function twoFactorRequiredFor(ctx: AppContext, role: Role): Promise<boolean> {
  return roleRequiresTwoFactor(ctx.db, role);
}

/** A new secret, waiting for its first code; a set-up started before is replaced. */
export async function startEnrolment(ctx: AppContext, user: Who): Promise<TwoFactorEnrolment> {
  const secret = new Secret({ size: 20 });
  const sealed = new SecretBox(ctx.config.totpKey).seal(secret.base32, sealContext(user.id));
  if (!(await upsertPendingSecret(ctx.db, user.id, sealed))) {
    throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorAlreadyOn);
  }
  return { secret: secret.base32, uri: totpFor(user.username, secret).toString() };
}

/**
 * The first code confirms the set-up: two-factor sign-in is on, ten recovery codes are made (and
 * shown this once), and the caller's other sessions end. The session that set it up goes on,
 * free of the set-up-only limit.
 */
export async function confirmEnrolment(
  ctx: AppContext,
  user: Who,
  sessionId: string,
  code: string,
): Promise<TwoFactorEnabled> {
  const row = await findPendingSecret(ctx.db, user.id);
  if (!row) {
    if (await isTwoFactorOn(ctx.db, user.id)) throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorAlreadyOn);
    throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorNoEnrolment);
  }
  const step = stepOf(ctx, user, row.secret, code);
  if (step === undefined) throw AppError.field('code', MESSAGES.twoFactorCodeInvalid);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabled = await ctx.db.transaction(async (tx) => {
    if (!(await enableTwoFactor(tx, user.id, row.secret, step))) return false;
    await recordAudit(tx, { ...ownChange(user), action: 'auth.2fa_enrolled' });
    await replaceRecoveryCodes(tx, user.id, codes.map(hashRecoveryCode));
    await clearEnrolRequired(tx, sessionId);
    return true;
  });
  // A concurrent confirmation (or a new set-up) got there first.
  if (!enabled) throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorNoEnrolment);
  ctx.events.sessionsChanged([sessionId]);
  ctx.events.sessionsChanged(await endSessions(ctx.db, user.id, { except: sessionId }));
  ctx.events.callerChanged(user.id);
  return { message: SERVER_MESSAGES.twoFactorEnabled, recoveryCodes: codes };
}

/** Turns it off with a code (or a recovery code); refused while the role requires it. */
export async function disableOwnTwoFactor(
  ctx: AppContext,
  user: Who,
  sessionId: string,
  code: string,
): Promise<{ message: string }> {
  if (await roleRequiresTwoFactor(ctx.db, user.role))
    throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorRequiredByRole);
  if (!(await isTwoFactorOn(ctx.db, user.id))) throw new AppError('CONFLICT', SERVER_MESSAGES.twoFactorNotOn);
  if (!(await takeCode(ctx, user, code))) throw AppError.field('code', MESSAGES.twoFactorCodeInvalid);
  await ctx.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, user.id);
    await recordAudit(tx, { ...ownChange(user), action: 'auth.2fa_disabled' });
  });
  ctx.events.sessionsChanged(await endSessions(ctx.db, user.id, { except: sessionId }));
  ctx.events.callerChanged(user.id);
  return { message: MESSAGES.twoFactorDisabled };
}

/**
 * Takes a code for the user: a TOTP code of the current step (± one) not older than the last
 * one taken, or an unused recovery code. Each is taken by one conditional UPDATE, so of two
 * requests with the same code only one succeeds.
 */
export async function takeCode(ctx: AppContext, user: Who, code: string): Promise<boolean> {
  const compact = code.replace(/[\s-]/g, '').toLowerCase();
  if (SIX_DIGITS.test(compact)) {
    const row = await findEnabledSecret(ctx.db, user.id);
    const step = row ? stepOf(ctx, user, row.secret, compact) : undefined;
    if (step === undefined) return false;
    return takeTotpStep(ctx.db, user.id, step);
  }
  return takeRecoveryCode(ctx.db, user.id, hashRecoveryCode(compact));
}

export async function twoFactorPolicy(ctx: AppContext): Promise<TwoFactorPolicy> {
  return { roles: await twoFactorRoleList(ctx.db) };
}

/** Applies to sign-ins from now on: a session already open goes on as it is. */
export async function setTwoFactorPolicy(
  ctx: AppContext,
  admin: Who,
  policy: TwoFactorPolicy,
): Promise<TwoFactorPolicy & { message: string }> {
  const roles = [...new Set(policy.roles)].sort();
  await ctx.db.transaction(async (tx) => {
    const before = await replaceTwoFactorRoles(tx, roles);
    await recordAudit(tx, {
      actorId: admin.id,
      address: admin.address ?? null,
      action: 'auth.2fa_policy_changed',
      details: { changes: { roles: { from: before.sort(), to: roles } } },
    });
  });
  return { ...(await twoFactorPolicy(ctx)), message: MESSAGES.twoFactorPolicySaved };
}

/** The time step the code belongs to, if it is right for the sealed secret (within the window). */
function stepOf(ctx: AppContext, user: Who, sealed: string, code: string): number | undefined {
  const compact = code.replace(/\s/g, '');
  if (!SIX_DIGITS.test(compact)) return undefined;
  const secret = Secret.fromBase32(new SecretBox(ctx.config.totpKey).open(sealed, sealContext(user.id)));
  const timestamp = ctx.clock();
  const delta = totpFor(user.username, secret).validate({ token: compact, timestamp, window: WINDOW });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}

/** The sealed secret names its user: a secret copied onto another user's row does not open there. */
function sealContext(userId: number): string {
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
