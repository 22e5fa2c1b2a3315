import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, gte, lt, or, sql, type Column, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { maskName } from '@lot/domain/mask';
import { MESSAGES } from '@lot/domain/messages';
import type { AuditAction, AuditEntry, AuditPerson, ListAuditQuery } from '@lot/domain/schemas/audit';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';

const actor = alias(users, 'actor');
const targetUser = alias(users, 'target_user');

/** A person filter: an exact id, or a part of a username or full name. */
function personMatches(person: { username: Column; fullName: Column }, idColumn: Column, text: string): SQL {
  if (/^\d{1,10}$/.test(text)) return sql`${idColumn} = ${Number(text)}`;
  const pattern = containsPattern(text);
  return sql`(${person.username} ILIKE ${pattern} OR ${person.fullName} ILIKE ${pattern})`;
}

/**
 * Who reads which entries (docs/product/runtime-and-security.md#audit-trail, decision 048): the
 * admin all; a super agent or an agent those about a person who was in its hierarchy as the row
 * records it (the person themself, or one of the parent and super agent in the row's
 * `actor_scope` or `target_scope`); a plain user none. Per person, so that whoever of the two was
 * outside is masked.
 */
function seesActor(caller: Caller): SQL {
  if (caller.role === 'admin') return sql`true`;
  return sql`(${auditLog.actorId} = ${caller.id} OR ${caller.id}::int = ANY(${auditLog.actorScope}))`;
}
function seesTarget(caller: Caller): SQL {
  if (caller.role === 'admin') return sql`true`;
  return sql`(${auditLog.targetUserId} = ${caller.id} OR ${caller.id}::int = ANY(${auditLog.targetScope}))`;
}

/**
 * Named in full on a row the caller reads: someone in its hierarchy then, or its own upline (whose
 * name it already knows from its profile); the upline's address stays hidden all the same.
 */
function namesActor(caller: Caller): SQL {
  return sql`(${seesActor(caller)} OR ${auditLog.actorId} IS NOT DISTINCT FROM ${caller.parentId}::int)`;
}
function namesTarget(caller: Caller): SQL {
  return sql`(${seesTarget(caller)} OR ${auditLog.targetUserId} IS NOT DISTINCT FROM ${caller.parentId}::int)`;
}

function auditScope(caller: Caller): SQL | undefined {
  if (caller.role === 'user') throw new AppError('FORBIDDEN', MESSAGES.auditUsersOnly);
  if (caller.role === 'admin') return undefined;
  return sql`(${seesActor(caller)} OR ${seesTarget(caller)})`;
}

type AuditFilter = Omit<ListAuditQuery, 'limit' | 'offset'>;

/** The filters: a person filter matches only someone the caller sees named on that row, so it never names a masked one. */
function auditWhere(caller: Caller, query: AuditFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [auditScope(caller)];
  const actorShown = namesActor(caller);
  const targetShown = namesTarget(caller);
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.actor) conditions.push(and(personMatches(actor, auditLog.actorId, query.actor), actorShown));
  if (query.target) {
    conditions.push(
      /^\d{1,10}$/.test(query.target)
        ? or(
            and(eq(auditLog.targetUserId, Number(query.target)), targetShown),
            and(eq(auditLog.targetId, Number(query.target)), sql`${auditLog.targetKind} IS DISTINCT FROM 'user'`),
          )
        : and(personMatches(targetUser, auditLog.targetUserId, query.target), targetShown),
    );
  }
  if (query.userId)
    conditions.push(
      or(
        and(eq(auditLog.actorId, query.userId), actorShown),
        and(eq(auditLog.targetUserId, query.userId), targetShown),
      ),
    );
  if (query.from) conditions.push(gte(auditLog.at, new Date(query.from)));
  // `to` takes in its whole millisecond, as the other lists' (the API shows times to the millisecond).
  if (query.to) conditions.push(lt(auditLog.at, new Date(new Date(query.to).getTime() + 1)));
  return and(...conditions);
}

function entryColumns(caller: Caller) {
  return {
    id: auditLog.id,
    chain: auditLog.chain,
    seq: auditLog.seq,
    at: auditLog.at,
    actorId: auditLog.actorId,
    actorUsername: actor.username,
    actorFullName: actor.fullName,
    actorShown: sql<boolean>`${seesActor(caller)}`.mapWith(Boolean),
    actorNamed: sql<boolean>`${namesActor(caller)}`.mapWith(Boolean),
    address: auditLog.address,
    action: auditLog.action,
    targetKind: auditLog.targetKind,
    targetId: auditLog.targetId,
    targetUserId: auditLog.targetUserId,
    targetUsername: targetUser.username,
    targetFullName: targetUser.fullName,
    targetNamed: sql<boolean>`${namesTarget(caller)}`.mapWith(Boolean),
    details: auditLog.details,
    hash: auditLog.hash,
  };
}

function selectEntries(db: Db, caller: Caller) {
  return db
    .select(entryColumns(caller))
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId));
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

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
  const rows = await selectEntries(db, caller)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(query.limit)
    .offset(query.offset);
  return { items: rows.map(toEntry), total: counted?.total ?? 0 };
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
export function auditExportPages(db: Db, caller: Caller, query: AuditFilter): AsyncIterable<EntryRow[]> {
  const where = auditWhere(caller, query);
  return keysetPages(
    (after: number | undefined, limit: number) =>
      selectEntries(db, caller)
        .where(and(where, after === undefined ? undefined : lt(auditLog.id, after)))
        .orderBy(desc(auditLog.id))
        .limit(limit),
    (row) => row.id,
  );
}
