import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, gte, lt, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { ListAuditQuery } from '@lot/domain/schemas/audit';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';

/**
 * The audit module's SQL (decision 029, 044, 045): the chains' heads and rows walked in pages, the
 * entries a caller reads, the ledger compared with the audit trail in one statement, and the
 * checkpoint's reads and its record (the claims' and shifts' comparisons are in
 * claims-shifts-audit.repository.ts). Each hand-written statement is built by a `…Statement` function, so its text is
 * snapshotted (audit.repository.test.ts); the functions beside them run it and return plain rows.
 * A row is appended by `recordAudit` (lib/audit.ts): the database's trigger chains it.
 */

export type { Db, Tx };

// --- The trail as the caller reads it (GET /api/audit and its export) ---

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

/** The entries the caller reads at all; a plain user reads none (the service refuses it first). */
function auditScope(caller: Caller): SQL | undefined {
  if (caller.role === 'admin') return undefined;
  return sql`(${seesActor(caller)} OR ${seesTarget(caller)})`;
}

export type AuditFilter = Omit<ListAuditQuery, 'limit' | 'offset'>;

/** The filters: a person filter matches only someone the caller sees named on that row, so it never names a masked one. */
export function auditWhere(caller: Caller, query: AuditFilter): SQL | undefined {
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

function selectEntries(db: Db | Tx, caller: Caller) {
  return db
    .select(entryColumns(caller))
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId));
}

export type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

/** How many entries the caller may read match the filter. */
export async function countAuditEntries(db: Db | Tx, caller: Caller, query: AuditFilter): Promise<number> {
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .where(auditWhere(caller, query));
  return counted?.total ?? 0;
}

/** A page of them, newest first. */
export function auditEntriesPage(
  db: Db | Tx,
  caller: Caller,
  query: AuditFilter,
  page: { limit: number; offset: number },
): Promise<EntryRow[]> {
  return selectEntries(db, caller)
    .where(auditWhere(caller, query))
    .orderBy(desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Up to `limit` of them older than the entry `after` (all from the newest when undefined): an export's keyset page. */
export function auditEntriesBefore(
  db: Db | Tx,
  caller: Caller,
  query: AuditFilter,
  after: number | undefined,
  limit: number,
): Promise<EntryRow[]> {
  return selectEntries(db, caller)
    .where(and(auditWhere(caller, query), after === undefined ? undefined : lt(auditLog.id, after)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

// --- The chains, the ledger comparison and checkpoints ---

export type ChainRow = {
  id: string;
  chain: number;
  seq: number;
  at_us: string;
  actor_id: number | null;
  address: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  target_user_id: number | null;
  details: string;
  prev_hash: Buffer | Uint8Array;
  hash: Buffer | Uint8Array;
};

export const auditHeadsStatement = () => sql`SELECT chain, seq, hash FROM audit_heads`;

export function auditHeads(db: Db | Tx) {
  return queryRows<{ chain: number; seq: number; hash: Buffer | Uint8Array }>(db, auditHeadsStatement());
}

/** The next `PAGE` rows of the chains after (chain, seq) `after`, in chain order, with what their hash covers. */
export const auditPageStatement = (after: [number, number], PAGE: number) =>
  sql`SELECT id::text, chain, seq, (extract(epoch FROM at) * 1000000)::bigint::text AS at_us, actor_id, address,
          action, target_kind, target_id::text, target_user_id, details::text AS details, prev_hash, hash
        FROM audit_log WHERE (chain, seq) > (${after[0]}::int, ${after[1]}::int)
        ORDER BY chain, seq LIMIT ${PAGE}`;

export function auditPage(db: Db | Tx, after: [number, number], limit: number) {
  return queryRows<ChainRow>(db, auditPageStatement(after, limit));
}

/** Cents as the audit rows write them: `1.00`, `100000.00` (`formatCents`, and `decimal` in the money statement). */
export const decimal = (cents: string) => sql.raw(`((${cents})::numeric / 100)::numeric(20, 2)::text`);

export type LedgerAuditRow = {
  ledger_id: number | null;
  audit_id: string | null;
  type: string | null;
  amount: string | null;
  user_id: number | null;
  receiver_id: number | null;
  target_user: number | null;
  actor_id: number | null;
  action: string | null;
  audit_amount: string | null;
  audit_from: string | null;
  audit_to: string | null;
  audit_target_user: number | null;
  audit_actor: number | null;
  total: string;
};

/** The ledger and the audit trail compared both ways (see `compareLedgerWithAudit`); the first `LISTED` mismatches. */
export const ledgerAuditStatement = (LISTED: number) => sql`
    WITH base AS MATERIALIZED (
      SELECT COALESCE((SELECT ledger_from FROM audit_baseline WHERE id = 1), 0) AS ledger_from,
        COALESCE((SELECT pools_from FROM audit_baseline WHERE id = 1), 0) AS pools_from
    ),
    ledger AS MATERIALIZED (
      SELECT t.* FROM transactions t, base WHERE t.id > base.ledger_from
    ),
    expected AS (
      SELECT id AS ledger_id, type, amount, user_id, receiver_id,
        CASE type WHEN 'topup' THEN 'money.topup' WHEN 'transfer' THEN 'money.transfer'
          WHEN 'decrease' THEN 'money.correction' ELSE 'money.takeback' END AS action,
        'transaction' AS kind, id::bigint AS target_id, actor_id,
        CASE WHEN type IN ('topup', 'transfer') THEN receiver_id ELSE user_id END AS target_user
      FROM ledger WHERE type <> 'game'
      UNION ALL
      SELECT l.id, l.type, l.amount, l.user_id, l.receiver_id, s.action, 'game', r.id::bigint,
        CASE WHEN s.action = 'game.frozen' THEN l.actor_id END, l.user_id
      FROM ledger l
      CROSS JOIN base
      LEFT JOIN game_rounds r ON r.transaction_id = l.id
      JOIN (VALUES ('game.frozen', NULL), ('game.settled', 'completed'), ('game.voided', 'voided'))
        AS s (action, status) ON s.status IS NULL OR s.status = l.status
      -- A pool held before game.frozen rows existed has none (decision 059): its settlement or void still pairs.
      WHERE l.type = 'game' AND NOT (s.action = 'game.frozen' AND l.id <= base.pools_from)
    ),
    actual AS (
      SELECT a.id AS audit_id, a.action, a.target_kind AS kind, a.target_id, a.actor_id, a.target_user_id,
        CASE WHEN a.action LIKE 'money.%' THEN a.details->>'amount'
          WHEN a.action = 'game.voided' THEN a.details->>'returned' ELSE a.details->>'pool' END AS amount,
        a.details->>'from' AS from_id, a.details->>'to' AS to_id
      FROM audit_log a, base
      WHERE (a.action IN ('money.topup', 'money.transfer', 'money.correction', 'money.takeback')
          AND (a.target_kind IS DISTINCT FROM 'transaction' OR a.target_id IS NULL OR a.target_id > base.ledger_from))
        OR (a.action IN ('game.frozen', 'game.settled')
          OR (a.action = 'game.voided' AND a.details ? 'returned'))
          AND NOT EXISTS (SELECT 1 FROM game_rounds r
            WHERE r.id = a.target_id AND a.target_kind = 'game' AND r.transaction_id <= base.ledger_from)
    ),
    pairs AS (
      SELECT e.ledger_id, a.audit_id, e.type, e.amount, e.user_id, e.receiver_id, e.target_user, e.actor_id,
        COALESCE(e.action, a.action) AS action, a.amount AS audit_amount, a.from_id AS audit_from,
        a.to_id AS audit_to, a.target_user_id AS audit_target_user, a.actor_id AS audit_actor,
        e.kind AS e_kind
      FROM expected e
      FULL JOIN actual a ON a.action = e.action AND a.kind = e.kind AND a.target_id = e.target_id
    ),
    bad AS (
      SELECT * FROM pairs
      WHERE ledger_id IS NULL OR audit_id IS NULL
        OR audit_amount IS DISTINCT FROM ${decimal('amount')}
        OR audit_target_user IS DISTINCT FROM target_user
        OR (actor_id IS NOT NULL AND audit_actor IS DISTINCT FROM actor_id)
        OR (e_kind = 'transaction' AND (audit_from IS DISTINCT FROM user_id::text
          OR audit_to IS DISTINCT FROM receiver_id::text))
    )
    SELECT b.ledger_id, b.audit_id::text, b.type, b.amount::text, b.user_id, b.receiver_id, b.target_user,
      b.actor_id, b.action, b.audit_amount, b.audit_from, b.audit_to, b.audit_target_user, b.audit_actor,
      (SELECT count(*) FROM bad)::text AS total,
      (SELECT count(*) FROM ledger)::text AS ledger_rows,
      (SELECT count(*) FROM actual)::text AS audit_rows,
      (SELECT ledger_from FROM base) AS ledger_from,
      (SELECT pools_from FROM base) AS pools_from
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (SELECT * FROM bad ORDER BY ledger_id NULLS LAST, audit_id LIMIT ${LISTED}) b ON true
    ORDER BY b.ledger_id NULLS LAST, b.audit_id`;

export function ledgerAuditRows(db: Db | Tx, listed: number) {
  return queryRows<
    LedgerAuditRow & { ledger_rows: string; audit_rows: string; ledger_from: number; pools_from: number }
  >(db, ledgerAuditStatement(listed));
}

/** Every chain's head and row count and the ledger's extent, in one statement (one snapshot). */
export const checkpointStateStatement = () =>
  sql`WITH counts AS (SELECT chain, count(*) AS n FROM audit_log GROUP BY chain)
      SELECT h.chain, h.seq, encode(h.hash, 'hex') AS hash, COALESCE(c.n, 0)::text AS rows,
        COALESCE((SELECT ledger_from FROM audit_baseline WHERE id = 1), 0) AS ledger_from,
        COALESCE((SELECT pools_from FROM audit_baseline WHERE id = 1), 0) AS pools_from,
        COALESCE((SELECT max(id) FROM transactions), 0) AS last_id,
        (SELECT count(*) FROM transactions)::text AS ledger_rows
      FROM (SELECT 1) one
      LEFT JOIN (audit_heads h LEFT JOIN counts c ON c.chain = h.chain) ON true
      ORDER BY h.chain`;

export function checkpointState(db: Db | Tx) {
  return queryRows<{
    chain: number | null;
    seq: number | null;
    hash: string | null;
    rows: string | null;
    ledger_from: number;
    pools_from: number;
    last_id: number;
    ledger_rows: string;
  }>(db, checkpointStateStatement());
}

export type CheckpointRecord = { madeAt: string; digest: string; chains: number; auditRows: number };

export const insertCheckpointStatement = (checkpoint: CheckpointRecord, target: string) =>
  sql`INSERT INTO audit_checkpoints (made_at, digest, chains, rows, target)
    VALUES (${checkpoint.madeAt}::timestamptz, ${checkpoint.digest}, ${checkpoint.chains},
      ${checkpoint.auditRows}, ${target})`;

export async function insertCheckpoint(db: Db | Tx, checkpoint: CheckpointRecord, target: string): Promise<void> {
  await db.execute(insertCheckpointStatement(checkpoint, target));
}

export type ChainState = {
  chain: number;
  username: string | null;
  seq: number;
  hash: string;
  rows: number;
  head_seq: number | null;
  hash_now: string | null;
  rows_now: string;
};

/** The checkpoint's chains that no longer hold as it saw them (head behind, hash or row count changed). */
export const checkpointChainStatesStatement = (chains: { chain: number; seq: number; hash: string; rows: number }[]) =>
  sql`WITH cp AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(chains)}::jsonb)
          AS c (chain int, seq int, hash text, rows int)
      ), state AS (
        SELECT cp.*, u.username, h.seq AS head_seq, encode(l.hash, 'hex') AS hash_now,
          (SELECT count(*) FROM audit_log x WHERE x.chain = cp.chain AND x.seq <= cp.seq)::text AS rows_now
        FROM cp
        LEFT JOIN users u ON u.id = cp.chain
        LEFT JOIN audit_heads h ON h.chain = cp.chain
        LEFT JOIN audit_log l ON l.chain = cp.chain AND l.seq = cp.seq
      )
      SELECT chain, username, seq, hash, rows, head_seq, hash_now, rows_now FROM state
      WHERE head_seq IS NULL OR head_seq < seq OR hash_now IS DISTINCT FROM hash OR rows_now::bigint <> rows
      ORDER BY chain`;

export function checkpointChainStates(
  db: Db | Tx,
  chains: { chain: number; seq: number; hash: string; rows: number }[],
) {
  return queryRows<ChainState>(db, checkpointChainStatesStatement(chains));
}

/** The ledger's rows up to `lastId` and its audit baseline now. */
export const checkpointLedgerStatement = (lastId: number) =>
  sql`SELECT (SELECT count(*) FROM transactions WHERE id <= ${lastId}::int)::text AS rows,
      COALESCE((SELECT ledger_from FROM audit_baseline WHERE id = 1), 0) AS from,
      COALESCE((SELECT pools_from FROM audit_baseline WHERE id = 1), 0) AS pools_from`;

export async function checkpointLedger(db: Db | Tx, lastId: number) {
  const [row] = await queryRows<{ rows: string; from: number; pools_from: number }>(
    db,
    checkpointLedgerStatement(lastId),
  );
  return row;
}

export type GameForAudit = {
  id: number;
  code: string;
  status: string;
  entries_digest: string | null;
  frozen_at: Date | string | null;
  beacon_round: string | number | null;
  chain: string | null;
  genesis: string | number | null;
  period: number | null;
  numbers: number[] | string | null;
  transaction_id: number | null;
};

export type GameAuditRow = { id: string | number; action: string; target_id: string | number | null; details: unknown };

export type LogLeafRow = {
  idx: string | number;
  game_id: number;
  kind: string;
  data: Uint8Array | string;
  attempt: boolean;
};

/** Every game row, with what audit:verify compares (decision 083), and the audit trail's baseline. */
export async function gamesForAudit(db: Db) {
  const games = await queryRows<GameForAudit>(
    db,
    sql`SELECT id, code, status, entries_digest, frozen_at, beacon_round, beacon->>'chainHash' AS chain,
        (beacon->>'genesisTime')::bigint AS genesis, (beacon->>'period')::int AS period,
        (SELECT coalesce(jsonb_agg((d->>'number')::int ORDER BY n), '[]'::jsonb)
          FROM jsonb_array_elements(draws) WITH ORDINALITY AS x(d, n)) AS numbers,
        transaction_id
      FROM game_rounds ORDER BY id`,
  );
  const [base] = await queryRows<{ ledger_from: number; pools_from: number }>(
    db,
    sql`SELECT coalesce((SELECT ledger_from FROM audit_baseline WHERE id = 1), 0) AS ledger_from,
      coalesce((SELECT pools_from FROM audit_baseline WHERE id = 1), 0) AS pools_from`,
  );
  return { games, base };
}

/** The audit rows of games' freezes, settlements and voids. */
export const gameAuditRows = (db: Db) =>
  queryRows<GameAuditRow>(
    db,
    sql`SELECT id, action, target_id, details FROM audit_log
      WHERE target_kind = 'game' AND action IN ('game.frozen', 'game.settled', 'game.voided') ORDER BY id`,
  );

/** The game log's leaves [from, from + count) with their stored level-0 hashes, and whether more follow. */
export async function logLeavesPage(db: Db, from: number, count: number) {
  const rows = await queryRows<LogLeafRow & { hash: Uint8Array | string | null }>(
    db,
    sql`SELECT e.idx, e.game_id, e.kind, e.data, e.attempt, h.hash FROM game_log_entries e
      LEFT JOIN game_log_hashes h ON h.level = 0 AND h.idx = e.idx
      WHERE e.idx >= ${from}::bigint AND e.idx < ${from + count}::bigint ORDER BY e.idx`,
  );
  const [more] = await queryRows<{ more: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM game_log_entries WHERE idx >= ${from + count}::bigint) AS more`,
  );
  return { rows, more: Boolean(more?.more) };
}

/** The witnessed checkpoint of the latest witnessed freeze (decision 080), if any. */
export async function latestWitnessedCheckpoint(db: Db): Promise<string | null> {
  const [row] = await queryRows<{ log_checkpoint: string }>(
    db,
    sql`SELECT log_checkpoint FROM game_rounds WHERE log_checkpoint IS NOT NULL ORDER BY log_index DESC LIMIT 1`,
  );
  return row?.log_checkpoint ?? null;
}
