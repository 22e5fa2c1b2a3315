import { and, asc, count, desc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { BeaconPin, DrawEntry, DrawPrize } from '@lot/domain/draw';
import type { Participant } from '@lot/domain/game';
import type { GamesQuery } from '@lot/domain/schemas/games';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { containsPattern, whereClause } from '../../db/sql.ts';
import { gameRounds, slipPrints, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { gamesAccess } from './games.access.ts';
import { insertAuditRow } from '../../lib/audit.ts';

/** A game's row and the readers of its JSON columns, shared by the games service and the sales history. */
export type Prize = DrawPrize & { name: string };
export type StoredDraw = { number: number; drawnAt: string };
/**
 * An entry as stored: the nonce is null on entries from before LOT-DRAW-2 (decision 033);
 * `canonical` says which canonical form its hash takes the name and phone in (`DrawEntry`'s,
 * docs/lot-draw-2.md#entries): 2 for every entry written since 29 November 2026.
 */
export type StoredEntry = Participant & { nonce: string | null; canonical?: DrawEntry['canonical'] };
export type Round = typeof gameRounds.$inferSelect;
/** A transaction's handle, for services that run several of these functions in one. */
export type { Tx };

export const prizesOf = (round: Round) => round.prizes as Prize[];
export const entriesOf = (round: Round): StoredEntry[] =>
  (round.entries as (Participant & { nonce?: string | null; canonical?: DrawEntry['canonical'] })[]).map((e) => ({
    ...e,
    nonce: e.nonce ?? null,
  }));
export const drawsOf = (round: Round) => round.draws as StoredDraw[];
/** The pool: every entry's bet. */
export const poolOf = (round: Round) => entriesOf(round).length * round.betAmount;
/** The beacon a LOT-DRAW-2 game pinned when it opened; null for LOT-DRAW-1. */
export const beaconOf = (round: Round) => round.beacon as BeaconPin | null;

/** The settled game behind a sales-history record the old client posts (compatibility path). */
export async function settledRoundOf(
  db: Db,
  caller: Caller,
  gameId: number | undefined,
): Promise<{ saleId: number; entries: Participant[]; drawn: number[]; prizes: Prize[] } | undefined> {
  const [round] = await db
    .select()
    .from(gameRounds)
    .where(
      and(
        eq(gameRounds.userId, caller.id),
        eq(gameRounds.status, 'settled'),
        gameId === undefined ? undefined : eq(gameRounds.id, gameId),
      ),
    )
    .orderBy(desc(gameRounds.endedAt), desc(gameRounds.id))
    .limit(1);
  if (!round || round.saleId === null) return undefined;
  return {
    saleId: round.saleId,
    entries: entriesOf(round),
    drawn: drawsOf(round).map((d) => d.number),
    prizes: prizesOf(round),
  };
}

/**
 * A void as one statement: the round, if it still stands as read, ends; after the first draw the
 * held pool goes back to the balance and its ledger row ends as `voided`. `done` false: the round
 * moved since it was read.
 */
export type VoidWrite = {
  read: { id: number; status: 'open' | 'drawing' };
  userId: number;
  actorId: number;
  pool: number;
  transactionId: number | null;
  reason: string;
  /** Its audit row (decision 029). */
  audit: { address: string | null; details: Record<string, unknown> };
};

export function voidStatement(input: VoidWrite): SQL {
  const { read } = input;
  const returned =
    read.status === 'drawing'
      ? sql`
    returned AS (
      UPDATE balances SET amount = amount + ${input.pool}::bigint
      WHERE user_id = ${input.userId}::int AND EXISTS (SELECT 1 FROM r)
    ),
    ledger AS (
      UPDATE transactions SET status = 'voided', description = ${`Game voided: ${input.reason}`}::text
      WHERE id = ${input.transactionId}::int AND EXISTS (SELECT 1 FROM r)
    ),`
      : sql``;
  return sql`
    WITH r AS MATERIALIZED (
      SELECT id FROM game_rounds WHERE id = ${read.id}::int AND status = ${read.status}::text FOR UPDATE
    ),${returned}
    ended AS (
      UPDATE game_rounds SET status = ${read.status === 'drawing' ? 'voided' : 'discarded'}::text,
        void_reason = ${input.reason}::text, voided_by = ${input.actorId}::int, ended_at = now()
      WHERE id IN (SELECT id FROM r)
      RETURNING id
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
      SELECT ${input.actorId}::int, ${input.audit.address}::text, 'game.voided', 'game', ended.id,
        ${input.userId}::int, ${JSON.stringify(input.audit.details)}::jsonb
      FROM ended
    )
    SELECT EXISTS (SELECT 1 FROM ended) AS done`;
}

/**
 * What a void's audit row kept of the winners its game's draws had announced (decision 094): the
 * prizes as text, or null for a void before any winner. Found through the shop's audit rows
 * (audit_log_target_user_idx), as the row names the game's shop.
 */
export const voidedAfterWinnerPrizes = (round: { id: SQL | PgColumn; userId: SQL | PgColumn }) =>
  sql<string | null>`(SELECT a.details->'afterWinner'->>'prizes' FROM audit_log a
    WHERE a.target_user_id = ${round.userId} AND a.action = 'game.voided' AND a.target_kind = 'game'
      AND a.target_id = ${round.id} LIMIT 1)`;

/**
 * A games export's row as the driver answers it, read by name (decision 020): the time is
 * PostgreSQL's text, exact for the keyset.
 */
export type GameExportRow = {
  id: number;
  created_at: string;
  ended_at: string | null;
  number: number;
  code: string;
  status: string;
  protocol: string;
  username: string;
  full_name: string;
  parent_name: string | null;
  start_range: number;
  end_range: number;
  bet_amount: string | number;
  pool: string | number;
  drawn: number;
  prizes: number;
  void_reason: string | null;
  voided_by: string | null;
};

/** One keyset page of a games export, newest first, after the row `after` (docs/product/reports.md#exports). */
function gameExportPage(
  db: Db,
  where: SQL | undefined,
  after: { at: string; id: number } | undefined,
  limit: number,
): Promise<GameExportRow[]> {
  const older =
    after && sql`(${gameRounds.createdAt}, ${gameRounds.id}) < (${after.at}::timestamptz, ${after.id}::int)`;
  const condition = and(where, older);
  return queryPrepared<GameExportRow>(
    db,
    sql`SELECT ${gameRounds.id}, ${gameRounds.createdAt}, ${gameRounds.endedAt}, ${gameRounds.number},
        ${gameRounds.code}, ${gameRounds.status}, ${gameRounds.protocol}, player.username, player.full_name,
        parent.full_name AS parent_name, ${gameRounds.startRange}, ${gameRounds.endRange}, ${gameRounds.betAmount},
        jsonb_array_length(${gameRounds.entries}) * ${gameRounds.betAmount} AS pool,
        jsonb_array_length(${gameRounds.draws}) AS drawn, jsonb_array_length(${gameRounds.prizes}) AS prizes,
        ${gameRounds.voidReason}, voider.full_name AS voided_by
      FROM ${gameRounds} JOIN users player ON player.id = ${gameRounds.userId}
        LEFT JOIN users parent ON parent.id = ${gameRounds.parentId}
        LEFT JOIN users voider ON voider.id = ${gameRounds.voidedBy}${whereClause(condition)}
      ORDER BY ${gameRounds.createdAt} DESC, ${gameRounds.id} DESC LIMIT ${limit}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The games service's reads and writes (docs/ARCHITECTURE.md): every query of the module is here.

const player = alias(users, 'player');
const voider = alias(users, 'voider');
const parent = alias(users, 'parent');

function selectRounds(db: Db | Tx) {
  return db
    .select({
      round: gameRounds,
      player: { id: player.id, username: player.username, fullName: player.fullName, shopName: player.shopName },
      voider: { id: voider.id, username: voider.username, fullName: voider.fullName, role: voider.role },
      parentFullName: parent.fullName,
    })
    .from(gameRounds)
    .innerJoin(player, eq(player.id, gameRounds.userId))
    .leftJoin(voider, eq(voider.id, gameRounds.voidedBy))
    .leftJoin(parent, eq(parent.id, gameRounds.parentId));
}

/** A game's row with its player, its voider and its player's parent, as the answers show them. */
export type RoundRow = Awaited<ReturnType<ReturnType<typeof selectRounds>['execute']>>[number];

export async function findRoundRow(db: Db | Tx, id: number): Promise<RoundRow | undefined> {
  const [row] = await selectRounds(db).where(eq(gameRounds.id, id));
  return row;
}

/** The game with this id, if the caller may read it. */
export async function findReadableRoundRow(db: Db | Tx, caller: Caller, id: number): Promise<RoundRow | undefined> {
  const [row] = await selectRounds(db).where(and(eq(gameRounds.id, id), gamesAccess.read(caller)));
  return row;
}

export async function findRoundRowByCode(db: Db, code: string): Promise<RoundRow | undefined> {
  const [row] = await selectRounds(db).where(eq(gameRounds.code, code));
  return row;
}

/** Whether the game with this code is one the caller may watch on a display (one it may read). */
export async function isGameReadable(db: Db, caller: Caller, code: string): Promise<boolean> {
  const [found] = await db
    .select({ id: gameRounds.id })
    .from(gameRounds)
    .where(and(eq(gameRounds.code, code), gamesAccess.watch(caller)));
  return found !== undefined;
}

/** The player's game in progress (open or drawing). */
export async function findCurrentRoundRow(db: Db, userId: number): Promise<RoundRow | undefined> {
  const [row] = await selectRounds(db).where(
    and(eq(gameRounds.userId, userId), sql`${gameRounds.status} IN ('open', 'drawing')`),
  );
  return row;
}

export type NewRound = Omit<typeof gameRounds.$inferInsert, 'id' | 'number'>;

/** The insert of a game that opens (its number comes from the trigger, decision 037). */
export const insertRoundQuery = (db: Db | Tx, values: NewRound) =>
  db.insert(gameRounds).values(values).returning({ id: gameRounds.id });

/** Inserts a game; answers its id. */
export async function insertRound(tx: Db | Tx, values: NewRound): Promise<number> {
  const [row] = await insertRoundQuery(tx, values);
  if (!row) throw new Error('game insert returned no row');
  return row.id;
}

/** A second game in progress of one player (the partial unique index). */
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === UNIQUE_VIOLATION;

/** Locks the player's own game for the rest of the transaction. */
export async function lockOwnRound(tx: Tx, userId: number, id: number): Promise<Round | undefined> {
  const [round] = await tx
    .select()
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), eq(gameRounds.userId, userId)))
    .for('update');
  return round;
}

/** The participants of an open game replaced (under the lock `lockOwnRound` took). */
export const setEntriesQuery = (db: Db | Tx, id: number, entries: StoredEntry[]) =>
  db.update(gameRounds).set({ entries }).where(eq(gameRounds.id, id));

export async function setEntries(tx: Db | Tx, id: number, entries: StoredEntry[]): Promise<void> {
  await setEntriesQuery(tx, id, entries);
}

/** Keeps round R with a game voided before it was fetched (only once). */
export async function storeVoidedBeacon(
  db: Db | Tx,
  id: number,
  beacon: { signature: string; randomness: string },
): Promise<void> {
  await db
    .update(gameRounds)
    .set({ beaconSignature: beacon.signature, beaconRandomness: beacon.randomness })
    .where(and(eq(gameRounds.id, id), isNull(gameRounds.beaconSignature)));
}

/** One void: its statement; true when it applied. */
export async function runVoid(db: Db | Tx, input: VoidWrite): Promise<boolean> {
  const [row] = await queryPrepared<{ done: boolean }>(db, voidStatement(input));
  return row?.done === true;
}

/** The games of a list or its export: the caller's scope, the status (any but discarded) and the dates. */
export function gamesWhere(caller: Caller, query: Omit<GamesQuery, 'limit' | 'offset'>): SQL | undefined {
  return and(
    gamesAccess.read(caller),
    query.status ? eq(gameRounds.status, query.status) : sql`${gameRounds.status} <> 'discarded'`,
    query.from ? gte(gameRounds.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(gameRounds.createdAt, new Date(Date.parse(query.to) + 1)) : undefined,
  );
}

/** A page of the caller's games list, newest first, with the count and the pools of the filtered set. */
export async function gamesPage(
  db: Db,
  caller: Caller,
  query: GamesQuery,
): Promise<{ rows: RoundRow[]; total: number; pool: string }> {
  const where = gamesWhere(caller, query);
  const [totalRow] = await db
    .select({
      total: count(),
      pool: sql<string>`coalesce(sum(jsonb_array_length(${gameRounds.entries}) * ${gameRounds.betAmount}), 0)::text`,
    })
    .from(gameRounds)
    .where(where);
  const rows = await selectRounds(db)
    .where(where)
    .orderBy(desc(gameRounds.createdAt), desc(gameRounds.id))
    .limit(query.limit)
    .offset(query.offset);
  return { rows, total: totalRow?.total ?? 0, pool: totalRow?.pool ?? '0' };
}

/** One keyset page of the caller's games export (the list's filtered set). */
export function callerGameExportPage(
  db: Db,
  caller: Caller,
  query: Omit<GamesQuery, 'limit' | 'offset'>,
  after: { at: string; id: number } | undefined,
  limit: number,
): Promise<GameExportRow[]> {
  return gameExportPage(db, gamesWhere(caller, query), after, limit);
}

/** The state a slip print is checked against: the player's own game. */
export async function findSlipRound(
  db: Db,
  userId: number,
  id: number,
): Promise<{ status: Round['status']; entries: unknown } | undefined> {
  const [round] = await db
    .select({ status: gameRounds.status, entries: gameRounds.entries })
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), eq(gameRounds.userId, userId)));
  return round;
}

export type SlipPrintRow = typeof slipPrints.$inferSelect;

/** Counts one print of a slip in one statement (INSERT … ON CONFLICT DO UPDATE). */
export async function countSlipPrint(
  db: Db,
  slip: { gameId: number; kind: SlipPrintRow['kind']; number: number },
): Promise<SlipPrintRow> {
  const [row] = await db
    .insert(slipPrints)
    .values({ ...slip, printCount: 1 })
    .onConflictDoUpdate({
      target: [slipPrints.gameId, slipPrints.kind, slipPrints.number],
      set: { printCount: sql`${slipPrints.printCount} + 1`, lastPrintedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('slip print upsert returned no row');
  return row;
}

/** A game's slip print counts, entry slips by number, then the result. */
export function slipPrintsOf(db: Db, gameId: number): Promise<SlipPrintRow[]> {
  return db
    .select()
    .from(slipPrints)
    .where(eq(slipPrints.gameId, gameId))
    .orderBy(asc(slipPrints.kind), asc(slipPrints.number));
}

/** The search of the remembered participants: the name or the phone, or the phone's digits. */
export function participantsStatement(userId: number, search: string, limit: number): SQL {
  const pattern = containsPattern(search);
  const digits = /^[\d +-]+$/.test(search) ? search.replace(/\D/g, '') : '';
  return sql`
      SELECT e.name, e.phone, max(r.created_at) AS last_used
      FROM game_rounds r
      CROSS JOIN LATERAL (
        SELECT x->>'name' AS name, x->>'phoneNumber' AS phone FROM jsonb_array_elements(r.entries) x
      ) e
      WHERE r.user_id = ${userId}
        AND (${search} = ''
          OR e.name ILIKE ${pattern}
          OR e.phone ILIKE ${pattern}
          OR (${digits} <> '' AND regexp_replace(e.phone, '[^0-9]', '', 'g') LIKE ${`%${digits}%`}))
      GROUP BY e.name, e.phone
      ORDER BY max(r.created_at) DESC, e.name, e.phone
      LIMIT ${limit}`;
}

/** The participants a shop entered before, once per name and phone, most recently used first. */
export function rememberedParticipantRows(
  db: Db,
  userId: number,
  search: string,
  limit: number,
): Promise<{ name: string; phone: string; last_used: Date | string }[]> {
  return queryRows(db, participantsStatement(userId, search, limit));
}
