import { z } from 'zod';
import { fromNotAfterTo, idSchema, offsetSchema, pageSizeSchema } from './common.ts';
import { exportFields } from './exports.ts';

/**
 * What the audit trail records (decision 029, docs/product/runtime-and-security.md#audit-trail):
 * every change made through the API, one row each.
 */
export const AUDIT_ACTIONS = [
  'auth.signin',
  'auth.signin_failed',
  'auth.password_changed',
  'auth.2fa_enrolled',
  'auth.2fa_disabled',
  'auth.2fa_policy_changed',
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.deleted',
  'money.topup',
  'money.transfer',
  'money.correction',
  'money.takeback',
  'winner.created',
  'winner.updated',
  'winner.deleted',
  'shift.opened',
  'shift.closed',
  'shift.cash_movement',
  'game.opened',
  'game.entries_changed',
  'game.frozen',
  'game.drawn',
  'game.voided',
  'game.settled',
  'claim.paid',
  'claim.refused',
  'claim.wrong_code',
  'claim.approved',
  'claim.expired',
  'claim.extended',
  'claim.marked_paid_before',
  'settings.updated',
  'settings.server_randomness',
  'backup.downloaded',
  'backup.key_created',
  'backup.key_revoked',
  'backup.key_refused',
  'log.origin_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How the screens name each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'auth.signin': 'Signed in',
  'auth.signin_failed': 'Sign-in failed',
  'auth.password_changed': 'Password changed',
  'auth.2fa_enrolled': 'Two-factor enrolled',
  'auth.2fa_disabled': 'Two-factor disabled',
  'auth.2fa_policy_changed': 'Two-factor policy changed',
  'user.created': 'User created',
  'user.updated': 'User edited',
  'user.deactivated': 'User deactivated',
  'user.deleted': 'User deleted',
  'money.topup': 'Top-up',
  'money.transfer': 'Transfer',
  'money.correction': 'Correction',
  'money.takeback': 'Take-back',
  'winner.created': 'Winner setting created',
  'winner.updated': 'Winner setting edited',
  'winner.deleted': 'Winner setting deleted',
  'shift.opened': 'Shift opened',
  'shift.closed': 'Shift closed',
  'shift.cash_movement': 'Cash movement',
  'game.opened': 'Game opened',
  'game.entries_changed': 'Game entries changed',
  'game.frozen': 'Game frozen',
  'game.drawn': 'Number drawn',
  'game.voided': 'Game voided',
  'game.settled': 'Game settled',
  'claim.paid': 'Prize paid',
  'claim.refused': 'Prize claim refused',
  'claim.wrong_code': 'Prize payout with a wrong entry code',
  'claim.approved': 'Prize payout without entry code approved',
  'claim.expired': 'Prize expired',
  'claim.extended': 'Prize claim extended',
  'claim.marked_paid_before': 'Prizes from before claims marked paid',
  'settings.updated': 'Business settings changed',
  'settings.server_randomness': 'Server randomness (LOT-DRAW-1) allowed or stopped',
  'backup.downloaded': 'Backup downloaded',
  'backup.key_created': 'Backup key created',
  'backup.key_revoked': 'Backup key revoked',
  'backup.key_refused': 'Backup key refused',
  'log.origin_changed': 'Game log origin changed',
};

export const AUDIT_TARGET_KINDS = ['user', 'transaction', 'winner', 'game', 'claim', 'shift', 'backup_key'] as const;

const userRef = z.object({ id: z.number().int(), username: z.string(), fullName: z.string() });
/**
 * Someone outside the reader's hierarchy when the row was written (decision 048): their name masked
 * as public pages mask it (`maskName`), and nothing else of them: no id, no username, no address.
 */
const maskedRef = z.object({ masked: z.literal(true), name: z.string() });
export const auditPersonSchema = z.union([userRef, maskedRef]);
export type AuditPerson = z.infer<typeof auditPersonSchema>;
/** A person the reader may see in full. */
export const isShownPerson = (person: AuditPerson | null): person is z.infer<typeof userRef> =>
  person !== null && !('masked' in person);

export const auditEntrySchema = z.object({
  id: z.number().int(),
  chain: z.number().int(),
  seq: z.number().int(),
  at: z.string(),
  actor: auditPersonSchema.nullable(),
  /** The actor's client address; null when the actor is masked. */
  address: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  targetKind: z.enum(AUDIT_TARGET_KINDS).nullable(),
  targetId: z.number().int().nullable(),
  targetUser: auditPersonSchema.nullable(),
  details: z.record(z.string(), z.unknown()),
  /** The row's SHA-256, hex: what `npm run audit:verify` recomputes. */
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const auditQueryObject = z.strictObject({
  limit: pageSizeSchema(1000, 50),
  offset: offsetSchema,
  /** Who acted: a username (or part of one, or a full name) or an exact id. */
  actor: z.string().trim().max(100).optional(),
  /** Whom it was about: a username (or part of one, or a full name) or an exact id. */
  target: z.string().trim().max(100).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** A user's entries, as actor or target (their audit tab). */
  userId: idSchema.optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
});
/** GET /api/audit: a page of 1 to 1,000 entries, as the other lists ('Choose at most 1,000 rows per page'; more come from the export). */
export const listAuditQuerySchema = auditQueryObject.superRefine(fromNotAfterTo);
/** GET /api/audit/export: every entry the filters match. */
export const auditExportQuerySchema = auditQueryObject
  .omit({ limit: true, offset: true })
  .extend(exportFields)
  .superRefine(fromNotAfterTo);
export type ListAuditQuery = z.infer<typeof listAuditQuerySchema>;

/**
 * GET /api/audit/checkpoint (the admin): the latest signed checkpoint of the audit chains
 * (decision 045), or null before the first. `digest` is its SHA-256, hex; screens and Z reports
 * show its first 16 digits (`shortDigest`, `@lot/domain/digest`).
 */
export const auditCheckpointSchema = z.object({
  digest: z.string(),
  madeAt: z.string(),
  chains: z.number().int(),
  rows: z.number().int(),
});
export type AuditCheckpoint = z.infer<typeof auditCheckpointSchema>;
