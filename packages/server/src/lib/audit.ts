import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditCheckpoint } from '@lot/domain/schemas/audit';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import type { Caller } from './caller.ts';

/**
 * One change for the audit trail (decision 029). Written in the same transaction (or the same
 * statement) as the change it describes, so a refused or failed change leaves no row. Details
 * never hold a password or a hash of one.
 */
export type AuditRecord = {
  actorId: number | null;
  /** The address the request came from (`request.ip`, decision 026). */
  address: string | null;
  action: AuditAction;
  targetKind?: 'user' | 'transaction' | 'winner' | 'game' | 'claim' | 'shift' | 'backup_key';
  targetId?: number | null;
  /** The user the change is about: the hierarchy sees an entry when its actor or this user is in its scope. */
  targetUserId?: number | null;
  details?: Record<string, unknown>;
};

/**
 * The columns a change writes, named by the table's schema (`db/schema.ts`), the one the ORM writes
 * `recordAudit`'s row by. `chain`, `seq`, `prev_hash` and `hash` are not among them: the database's
 * trigger sets them (decisions 029, 045), so no statement can write a row outside the hash chain.
 * `at` defaults to the statement's time; a statement names it only when the row must carry the time
 * of the change it records (a ledger entry, a payout).
 */
const AUDIT_COLUMNS = {
  actorId: auditLog.actorId,
  address: auditLog.address,
  action: auditLog.action,
  targetKind: auditLog.targetKind,
  targetId: auditLog.targetId,
  targetUserId: auditLog.targetUserId,
  details: auditLog.details,
  at: auditLog.at,
} as const;

/** A column a statement may leave to its default (actor and action it always writes). */
export type OptionalAuditColumn = Exclude<keyof typeof AUDIT_COLUMNS, 'actorId' | 'action'>;

/**
 * The head of an audit row written inside a statement (`INSERT INTO audit_log (…)`), the one way a
 * statement names the table's columns: the actor and the action, then the `optional` columns it
 * writes, always in the order above (the table's, `at` last). The statement's `SELECT` gives the
 * values in that order.
 */
export function insertAuditRow(...optional: OptionalAuditColumn[]): SQL {
  const written = (Object.keys(AUDIT_COLUMNS) as (keyof typeof AUDIT_COLUMNS)[]).filter(
    (column) => column === 'actorId' || column === 'action' || (optional as string[]).includes(column),
  );
  return sql.raw(`INSERT INTO audit_log (${written.map((column) => AUDIT_COLUMNS[column].name).join(', ')})`);
}

/** The actor and address of a change made by a signed-in caller. */
export const byCaller = (caller: Caller) => ({ actorId: caller.id, address: caller.address ?? null });

/** Appends one row; the database chains it (chain, seq, hashes are set by its trigger). */
export async function recordAudit(db: Db | Tx, entry: AuditRecord): Promise<void> {
  await auditInsert(db, entry);
}

/** The statement `recordAudit` runs (snapshotted in modules/audit/audit.repository.test.ts). */
export function auditInsert(db: Db | Tx, entry: AuditRecord) {
  return db.insert(auditLog).values({
    actorId: entry.actorId,
    address: entry.address,
    action: entry.action,
    targetKind: entry.targetKind ?? null,
    targetId: entry.targetId ?? null,
    targetUserId: entry.targetUserId ?? null,
    details: entry.details ?? {},
  });
}

/** Before and after of each field a change touched (never a password: callers leave it out). */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value !== undefined && value !== before[field]) changes[field] = { from: before[field] ?? null, to: value };
  }
  return changes;
}

/** The latest signed checkpoint of the audit chains (decision 045), or null before the first. */
export async function latestCheckpoint(db: Db | Tx): Promise<AuditCheckpoint | null> {
  const [row] = await queryRows<{ digest: string; made_at: Date | string; chains: number; rows: string }>(
    db,
    sql`SELECT digest, made_at, chains, rows::text FROM audit_checkpoints ORDER BY made_at DESC, id DESC LIMIT 1`,
  );
  if (!row) return null;
  return {
    digest: row.digest,
    madeAt: new Date(row.made_at).toISOString(),
    chains: row.chains,
    rows: Number(row.rows),
  };
}
