import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, gte, lt, or, sql, type Column, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import type { AuditAction, AuditEntry, ListAuditQuery } from '@lot/domain/schemas/audit';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';
import { scopeCondition } from '../users/users.access.ts';

const actor = alias(users, 'actor');
const targetUser = alias(users, 'target_user');

/** A person filter: an exact id, or a part of a username or full name. */
function personMatches(person: { username: Column; fullName: Column }, idColumn: Column, text: string): SQL {
  if (/^\d{1,10}$/.test(text)) return sql`${idColumn} = ${Number(text)}`;
  const pattern = containsPattern(text);
  return sql`(${person.username} ILIKE ${pattern} OR ${person.fullName} ILIKE ${pattern})`;
}

/**
 * Who reads which entries (docs/product/runtime-and-security.md#audit-trail): the admin all; a
 * super agent or an agent those whose actor or target user is in its own hierarchy, itself
 * included; a plain user none.
 */
function auditScope(caller: Caller): SQL | undefined {
  if (caller.role === 'user') throw new AppError('FORBIDDEN', MESSAGES.auditUsersOnly);
  if (caller.role === 'admin') return undefined;
  return sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} IN (${auditLog.actorId}, ${auditLog.targetUserId})
    AND ${scopeCondition(caller)})`;
}

type AuditFilter = Omit<ListAuditQuery, 'limit' | 'offset'>;

function auditWhere(caller: Caller, query: AuditFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [auditScope(caller)];
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.actor) conditions.push(personMatches(actor, auditLog.actorId, query.actor));
  if (query.target) {
    conditions.push(
      /^\d{1,10}$/.test(query.target)
        ? or(eq(auditLog.targetUserId, Number(query.target)), eq(auditLog.targetId, Number(query.target)))
        : personMatches(targetUser, auditLog.targetUserId, query.target),
    );
  }
  if (query.userId) conditions.push(or(eq(auditLog.actorId, query.userId), eq(auditLog.targetUserId, query.userId)));
  if (query.from) conditions.push(gte(auditLog.at, new Date(query.from)));
  // `to` takes in its whole millisecond, as the other lists' (the API shows times to the millisecond).
  if (query.to) conditions.push(lt(auditLog.at, new Date(new Date(query.to).getTime() + 1)));
  return and(...conditions);
}

const entryColumns = {
  id: auditLog.id,
  chain: auditLog.chain,
  seq: auditLog.seq,
  at: auditLog.at,
  actorId: auditLog.actorId,
  actorUsername: actor.username,
  actorFullName: actor.fullName,
  address: auditLog.address,
  action: auditLog.action,
  targetKind: auditLog.targetKind,
  targetId: auditLog.targetId,
  targetUserId: auditLog.targetUserId,
  targetUsername: targetUser.username,
  targetFullName: targetUser.fullName,
  details: auditLog.details,
  hash: auditLog.hash,
};

function selectEntries(db: Db) {
  return db
    .select(entryColumns)
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId));
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

const person = (id: number | null, username: string | null, fullName: string | null) =>
  id !== null && username !== null ? { id, username, fullName: fullName ?? '' } : null;

function toEntry(row: EntryRow): AuditEntry {
  return {
    id: row.id,
    chain: row.chain,
    seq: row.seq,
    at: row.at.toISOString(),
    actor: person(row.actorId, row.actorUsername, row.actorFullName),
    address: row.address,
    action: row.action as AuditAction,
    targetKind: row.targetKind as AuditEntry['targetKind'],
    targetId: row.targetId,
    targetUser: person(row.targetUserId, row.targetUsername, row.targetFullName),
    details: (row.details ?? {}) as Record<string, unknown>,
    hash: row.hash.toString('hex'),
  };
}

/** A page of the audit entries the caller may read, newest first, and how many match. */
export async function listAudit(
  db: Db,
  caller: Caller,
  query: ListAuditQuery,
): Promise<{ items: AuditEntry[]; total: number }> {
  const where = auditWhere(caller, query);
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .where(where);
  const rows = await selectEntries(db).where(where).orderBy(desc(auditLog.id)).limit(query.limit).offset(query.offset);
  return { items: rows.map(toEntry), total: counted?.total ?? 0 };
}

/** The columns of an audit export: what the screen shows, and the row's place in its chain and hash. */
export const AUDIT_EXPORT_COLUMNS: ExportColumn<EntryRow>[] = [
  { header: 'Time', type: 'time', value: (row) => row.at },
  { header: 'ID', type: 'integer', value: (row) => row.id },
  { header: 'Action', type: 'text', value: (row) => row.action },
  { header: 'Actor', type: 'text', value: (row) => row.actorUsername },
  { header: 'Address', type: 'text', value: (row) => row.address },
  {
    header: 'Target',
    type: 'text',
    value: (row) => (row.targetKind ? `${row.targetKind} ${row.targetId ?? ''}` : null),
  },
  { header: 'Target user', type: 'text', value: (row) => row.targetUsername },
  { header: 'Details', type: 'text', value: (row) => JSON.stringify(row.details ?? {}) },
  { header: 'Chain', type: 'integer', value: (row) => row.chain },
  { header: 'Seq', type: 'integer', value: (row) => row.seq },
  { header: 'Hash', type: 'text', value: (row) => row.hash.toString('hex') },
];

/** Every entry of the filtered set, newest first, a keyset page at a time (decision 020). */
export function auditExportPages(db: Db, caller: Caller, query: AuditFilter): AsyncIterable<EntryRow[]> {
  const where = auditWhere(caller, query);
  return keysetPages(
    (after: number | undefined, limit: number) =>
      selectEntries(db)
        .where(and(where, after === undefined ? undefined : lt(auditLog.id, after)))
        .orderBy(desc(auditLog.id))
        .limit(limit),
    (row) => row.id,
  );
}
