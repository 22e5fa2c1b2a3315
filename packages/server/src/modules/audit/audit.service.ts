import { AppError } from '@lot/domain/errors';
import { maskName } from '@lot/domain/mask';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { AuditAction, AuditCheckpoint, AuditEntry, AuditPerson, ListAuditQuery } from '@lot/domain/schemas/audit';
import type { Caller } from '../../lib/caller.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import { latestCheckpoint } from '../../lib/audit.ts';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';
import {
  auditEntriesBefore,
  auditEntriesPage,
  countAuditEntries,
  type AuditFilter,
  type EntryRow,
} from './audit.repository.ts';

/** A plain user reads no audit entries (docs/product/runtime-and-security.md#audit-trail). */
function mayRead(caller: Caller): void {
  if (caller.role === 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.auditUsersOnly);
}

/** A person as the caller may see them: in full, or (outside its hierarchy then) a masked name only. */
function person(
  id: number | null,
  username: string | null,
  fullName: string | null,
  shown: boolean,
): AuditPerson | null {
  if (id === null || username === null) return null;
  if (!shown) return { masked: true, name: maskName(fullName || username) };
  return { id, username, fullName: fullName ?? '' };
}

function toEntry(row: EntryRow): AuditEntry {
  return {
    id: row.id,
    chain: row.chain,
    seq: row.seq,
    at: row.at.toISOString(),
    actor: person(row.actorId, row.actorUsername, row.actorFullName, row.actorNamed),
    address: row.actorShown ? row.address : null,
    action: row.action as AuditAction,
    targetKind: row.targetKind as AuditEntry['targetKind'],
    targetId: row.targetId,
    targetUser: person(row.targetUserId, row.targetUsername, row.targetFullName, row.targetNamed),
    details: (row.details ?? {}) as Record<string, unknown>,
    hash: row.hash.toString('hex'),
  };
}

/** A person's cell in an export: the username, or the masked name. */
const personCell = (username: string | null, fullName: string | null, shown: boolean) =>
  username === null ? null : shown ? username : maskName(fullName || username);

/** A page of the audit entries the caller may read, newest first, and how many match. */
export async function listAudit(ctx: Context, query: ListAuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
  const { db, caller } = ctx;
  mayRead(caller);
  const total = await countAuditEntries(db, caller, query);
  const rows = await auditEntriesPage(db, caller, query, query);
  return { items: rows.map(toEntry), total };
}

/** The columns of an audit export: what the screen shows (masked as it is), and the row's place in its chain and hash. */
export const AUDIT_EXPORT_COLUMNS: ExportColumn<EntryRow>[] = [
  { header: 'Time', type: 'time', value: (row) => row.at },
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Action', type: 'text', value: (row) => row.action },
  { header: 'Actor', type: 'text', value: (row) => personCell(row.actorUsername, row.actorFullName, row.actorNamed) },
  { header: 'Address', type: 'text', value: (row) => (row.actorShown ? row.address : null) },
  {
    header: 'Target',
    type: 'text',
    value: (row) => (row.targetKind ? `${row.targetKind} ${row.targetId ?? ''}` : null),
  },
  {
    header: 'Target user',
    type: 'text',
    value: (row) => personCell(row.targetUsername, row.targetFullName, row.targetNamed),
  },
  { header: 'Details', type: 'text', value: (row) => JSON.stringify(row.details ?? {}) },
  { header: 'Chain', type: 'integer', value: (row) => row.chain },
  { header: 'Seq', type: 'integer', value: (row) => row.seq },
  { header: 'Hash', type: 'text', value: (row) => row.hash.toString('hex') },
];

/** Every entry of the filtered set, newest first, a keyset page at a time (decision 020). */
export function auditExportPages(ctx: Context, query: AuditFilter): AsyncIterable<EntryRow[]> {
  const { db, caller } = ctx;
  mayRead(caller);
  return keysetPages(
    (after: number | undefined, limit: number) => auditEntriesBefore(db, caller, query, after, limit),
    (row) => row.id,
  );
}

/** The latest signed checkpoint of the audit chains (decision 045), or null before the first. */
export function auditCheckpoint(ctx: AppContext): Promise<AuditCheckpoint | null> {
  return latestCheckpoint(ctx.db);
}
