import { and, asc, count, desc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BeaconPin, DrawPrize } from '@lot/domain/draw';
import type { Participant } from '@lot/domain/game';
import type { ClaimStatusInfo, GamesQuery } from '@lot/domain/schemas/games';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { containsPattern, whereClause } from '../../db/sql.ts';
import { gameRounds, slipPrints, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { gamesAccess } from './games.access.ts';

/** A game's row and the readers of its JSON columns, shared by the games service and the sales history. */
export type Prize = DrawPrize & { name: string };
export type StoredDraw = { number: number; drawnAt: string };
/**
 * An entry as stored: the nonce is null on entries from before LOT-DRAW-2 (decision 033);
 * `canonical` marks the entries whose hash takes the name and phone in canonical form
 * (docs/lot-draw-2.md#entries), every entry written since.
 */
export type StoredEntry = Participant & { nonce: string | null; canonical?: boolean };
export type Round = typeof gameRounds.$inferSelect;
/** A transaction's handle, for services that run several of these functions in one. */
export type { Tx };

export const prizesOf = (round: Round) => round.prizes as Prize[];
export const entriesOf = (round: Round): StoredEntry[] =>
  (round.entries as (Participant & { nonce?: string | null; canonical?: boolean })[]).map((e) => ({
    ...e,
    nonce: e.nonce ?? null,
  }));
export const drawsOf = (round: Round) => round.draws as StoredDraw[];
/** The pool: every entry's bet. */
export const poolOf = (round: Round) => entriesOf(round).length * round.betAmount;
/** The beacon a LOT-DRAW-2 game pinned when it opened; null for LOT-DRAW-1. */
export const beaconOf = (round: Round) => round.beacon as BeaconPin | null;

/** One audit row a game step writes in its statement (decision 029). */
export type StepAudit = { action: 'game.frozen' | 'game.drawn' | 'game.settled'; details: Record<string, unknown> };

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
 * What one draw writes, planned by `planDraw` (draw-plan.ts) from the round as it read it (without a
 * lock). `read` is that round's state: the statement writes only if the round still stands so.
 */
export type DrawWrite = {
  read: {
    id: number;
    status: 'open' | 'drawing';
    drawn: number;
    entries: unknown;
    /**
     * A draw built from the process's memory, not a read (decision 052): the round must also be in
     * this caller's scope, and the statement answers the player's names the read would have given.
     */
    caller?: Caller;
  };
  userId: number;
  actorId: number;
  pool: number;
  /** The held pool's ledger row, for draws after the first. */
  transactionId: number | null;
  draws: StoredDraw[];
  digest: string;
  /** The freeze (the first step: entries fixed, pool held): when, and — LOT-DRAW-2 — round R. */
  freeze?: {
    at: Date;
    beaconRound: number | null;
    /** A witnessed freeze (decision 080): its leaf's index and the cosigned checkpoint that holds it. */
    log?: { index: number; checkpoint: string };
  };
  /** LOT-DRAW-2's first draw stores round R's verified signature and randomness. */
  beacon?: { signature: string; randomness: string };
  /** The first draw holds the pool: the ledger row's description. */
  holdDescription: string;
  /**
   * The step's audit rows (decision 029), in order: the freeze, the draw, the settlement. Where the
   * request came from; a settlement's details get the sales-history record's id.
   */
  audit: { address: string | null; rows: StepAudit[] };
  /** The last draw settles: the sales-history record, its winners, the ledger row's final description. */
  settlement?: {
    description: string;
    sale: {
      parentId: number | null;
      superagentId: number | null;
      startRange: number;
      endRange: number;
      betAmount: number;
      totalPrize: number;
      commission: number;
      selectedCount: number;
      gameData: unknown;
      /** The numbers drawn, in order. */
      numbers: number[];
    };
    winners: (Participant & { position: number; prizeAmount: number })[];
  };
};

type DrawAnswerRow = {
  locked: boolean;
  drawn: boolean;
  transaction_id: number | null;
  sale_id: number | null;
  shift_id: number | null;
  ended_at: Date | string | null;
  player_username?: string | null;
  player_full_name?: string | null;
  player_shop_name?: string | null;
  claims?: { position: number; expires_at: string; expired: boolean }[] | null;
};

/** What a draw's statement answers: whether it applied, and the game's columns only it knew. */
export type DrawAnswer = {
  locked: boolean;
  drawn: boolean;
  transactionId: number | null;
  saleId: number | null;
  shiftId: number | null;
  endedAt: Date | null;
  /** With `read.caller`: the player's names as they stand now. */
  player?: { username: string; fullName: string; shopName: string | null };
  /** The settling draw's: the claims it wrote (decision 038), by prize position, none paid yet. */
  claims?: Map<number, ClaimStatusInfo>;
};

/**
 * One draw as one statement (decision 030), in the order its parts run: `lockRound`, then on the
 * first draw `attachShift` and `holdPool` (round, then balance: the order every game step keeps),
 * on the last `settle`, then `writeRound`, `appendAudit` and `answer`. No lock is held across a
 * round trip. `locked` false: the round moved since it was read; `drawn` false with `locked`: the
 * balance does not cover the pool. It answers, through RETURNING, the columns only it knows (the
 * ledger row, the sales-history record, the shift, the end), so the service answers the draw
 * without reading the game again (decision 052).
 */
export function drawStatement(write: DrawWrite): SQL {
  return sql`${lockRound(write)}${attachShift(write)}
    ${holdPool(write)}${settle(write)},
    ${writeRound(write)}${appendAudit(write)}
    ${answer(write)}`;
}

/** The draw's first step, the first before the freeze. */
const isFirst = (write: DrawWrite) => write.read.status === 'open';

/**
 * `r`: the round, locked only if it still stands as read — same status, same number of draws,
 * before the freeze the same entries, and drawn from memory in the caller's reach (decision 052).
 */
function lockRound({ read }: DrawWrite): SQL {
  const scope = read.caller && gamesAccess.read(read.caller);
  return sql`
    WITH r AS MATERIALIZED (
      SELECT id FROM game_rounds
      WHERE id = ${read.id}::int AND status = ${read.status}::text
        AND jsonb_array_length(draws) = ${read.drawn}::int
        ${read.status === 'open' ? sql`AND entries = ${JSON.stringify(read.entries)}::jsonb` : sql``}${
          scope
            ? sql`
        AND ${scope}`
            : sql``
        }
      FOR UPDATE
    ),`;
}

/** `shift`, on the first draw: the shop's open shift the game is attached to (decision 039). */
function attachShift(write: DrawWrite): SQL {
  return isFirst(write)
    ? sql`
    -- The freeze attaches the game to the shop's open shift (docs/decisions/039): FOR SHARE, so a
    -- close either waits for this game and counts it, or has closed the shift and none is attached.
    shift AS MATERIALIZED (
      SELECT id FROM shifts
      WHERE user_id = ${write.userId}::int AND closed_at IS NULL AND EXISTS (SELECT 1 FROM r)
      FOR SHARE
    ),`
    : sql``;
}

/**
 * `ledger`, the held pool's row. The first draw locks the player's balance (`bal`), takes the pool
 * if it covers it (`held`) and writes the row, `pending` (`completed` when it also settles); a
 * later draw keeps the held row, and the last one completes it (`completed`).
 */
function holdPool(write: DrawWrite): SQL {
  const { settlement } = write;
  if (!isFirst(write)) {
    return sql`ledger AS (SELECT ${write.transactionId}::int AS id FROM r)${
      settlement
        ? sql`,
      completed AS (
        UPDATE transactions SET status = 'completed', description = ${settlement.description}::text
        WHERE id = ${write.transactionId}::int AND EXISTS (SELECT 1 FROM r)
      )`
        : sql``
    }`;
  }
  const ledgerStatus = settlement ? 'completed' : 'pending';
  const ledgerDescription = settlement ? settlement.description : write.holdDescription;
  return sql`bal AS MATERIALIZED (
        SELECT user_id, amount FROM balances
        WHERE user_id = ${write.userId}::int AND EXISTS (SELECT 1 FROM r)
        FOR UPDATE
      ),
      held AS (
        UPDATE balances b SET amount = bal.amount - ${write.pool}::bigint
        FROM bal WHERE b.user_id = bal.user_id AND bal.amount >= ${write.pool}::bigint
        RETURNING b.user_id
      ),
      ledger AS (
        INSERT INTO transactions (type, user_id, receiver_id, actor_id, amount, status, description)
        SELECT 'game', ${write.userId}::int, NULL, ${write.actorId}::int, ${write.pool}::bigint,
          ${ledgerStatus}::text, ${ledgerDescription}::text
        FROM held
        RETURNING id
      )`;
}

/**
 * On the last draw: the sales-history record (`sale`), its winners (`won`) and their prize claims
 * (`claimed`, decision 038).
 */
function settle(write: DrawWrite): SQL {
  const { read, settlement } = write;
  if (!settlement) return sql``;
  return sql`,
      sale AS (
        INSERT INTO games (user_id, parent_id, superagent_id, start_range, end_range, bet_amount, pool,
          total_prize, commission, selected_count, winners_count, game_data, transaction_id, number)
        SELECT ${write.userId}::int, ${settlement.sale.parentId}::int, ${settlement.sale.superagentId}::int,
          ${settlement.sale.startRange}::int, ${settlement.sale.endRange}::int, ${settlement.sale.betAmount}::bigint,
          ${write.pool}::bigint, ${settlement.sale.totalPrize}::bigint, ${settlement.sale.commission}::bigint,
          ${settlement.sale.selectedCount}::int, ${settlement.winners.length}::int,
          ${JSON.stringify(settlement.sale.gameData)}::jsonb, ledger.id,
          (SELECT number FROM game_rounds WHERE id = ${read.id}::int)
        FROM ledger
        RETURNING id
      ),
      won AS (
        INSERT INTO game_winners (game_id, number, name, phone_number, position, prize_amount)
        SELECT sale.id, w.number, w.name, w.phone_number, w.position, w.prize_amount
        FROM sale, jsonb_to_recordset(${JSON.stringify(
          settlement.winners.map((w) => ({
            number: w.number,
            name: w.name,
            phone_number: w.phoneNumber,
            position: w.position,
            prize_amount: w.prizeAmount,
          })),
        )}::jsonb) AS w(number int, name text, phone_number text, position int, prize_amount bigint)
        RETURNING id, number, position, prize_amount
      ),
      claimed AS (
        -- Every prize is a claim, payable for the claim period (decision 038).
        INSERT INTO prize_claims (winner_id, game_id, user_id, parent_id, superagent_id, amount, entry_code, expires_at)
        SELECT won.id, ${read.id}::int, ${write.userId}::int, ${settlement.sale.parentId}::int,
          ${settlement.sale.superagentId}::int, won.prize_amount,
          (SELECT e.nonce FROM jsonb_to_recordset(${JSON.stringify(read.entries)}::jsonb) AS e(number int, nonce text)
            WHERE e.number = won.number),
          now() + make_interval(days => (SELECT claim_period_days FROM business_settings WHERE id = 1))
        FROM won
        WHERE won.prize_amount > 0
        RETURNING winner_id, expires_at
      )`;
}

/** `drawn`: the round updated — its draws, digest, status, and what the freeze, round R and the settlement add. */
function writeRound(write: DrawWrite): SQL {
  const { read, settlement } = write;
  return sql`drawn AS (
      UPDATE game_rounds SET draws = ${JSON.stringify(write.draws)}::jsonb, entries_digest = ${write.digest}::text,
        transaction_id = ledger.id, status = ${settlement ? 'settled' : 'drawing'}::text
        ${isFirst(write) ? sql`, shift_id = (SELECT id FROM shift)` : sql``}
        ${settlement ? sql`, sale_id = (SELECT id FROM sale), ended_at = now()` : sql``}
        ${write.freeze ? sql`, frozen_at = ${write.freeze.at.toISOString()}::timestamptz, beacon_round = ${write.freeze.beaconRound}::bigint${witnessedFreeze(write)}` : sql``}
        ${write.beacon ? sql`, beacon_signature = ${write.beacon.signature}::text, beacon_randomness = ${write.beacon.randomness}::text` : sql``}
      FROM ledger
      WHERE game_rounds.id = ${read.id}::int
      RETURNING game_rounds.id, game_rounds.transaction_id, game_rounds.sale_id, game_rounds.shift_id,
        game_rounds.ended_at
    )`;
}

/** A witnessed freeze's leaf and cosigned checkpoint (decision 080), kept with the game. */
const witnessedFreeze = ({ freeze }: DrawWrite): SQL =>
  freeze?.log ? sql`, log_index = ${freeze.log.index}::bigint, log_checkpoint = ${freeze.log.checkpoint}::text` : sql``;

/** `audited`: the step's audit rows in order (decision 029); a settlement's gets the sales-history record's id. */
function appendAudit(write: DrawWrite): SQL {
  return sql`,
      audited AS (
        INSERT INTO audit_log (actor_id, address, action, target_kind, target_id, target_user_id, details)
        SELECT ${write.actorId}::int, ${write.audit.address}::text, a.action, 'game', ${write.read.id}::int,
          ${write.userId}::int,
          ${
            write.settlement
              ? sql`a.details || CASE WHEN a.action = 'game.settled'
            THEN jsonb_build_object('saleId', (SELECT id FROM sale)) ELSE '{}'::jsonb END`
              : sql`a.details`
          }
        FROM drawn, jsonb_to_recordset(${JSON.stringify(write.audit.rows.map((row, n) => ({ ...row, n })))}::jsonb)
          AS a(action text, details jsonb, n int)
        ORDER BY a.n
      )`;
}

/**
 * The answer (decision 052): whether `r` locked and the draw was written, the columns only the
 * statement knows, the settling draw's claims, and — drawn from memory — the player's names.
 */
function answer(write: DrawWrite): SQL {
  const { read } = write;
  return sql`SELECT EXISTS (SELECT 1 FROM r) AS locked, drawn.id IS NOT NULL AS drawn, drawn.transaction_id,
      drawn.sale_id, drawn.shift_id, drawn.ended_at${
        write.settlement
          ? sql`,
      (SELECT jsonb_agg(jsonb_build_object('position', won.position, 'expires_at', claimed.expires_at,
        'expired', claimed.expires_at <= now())) FROM claimed JOIN won ON won.id = claimed.winner_id) AS claims`
          : sql``
      }${
        read.caller
          ? sql`,
      p.username AS player_username, p.full_name AS player_full_name, p.shop_name AS player_shop_name`
          : sql``
      }
    FROM (SELECT 1) AS one LEFT JOIN drawn ON true${
      read.caller ? sql` LEFT JOIN users p ON p.id = ${write.userId}::int AND EXISTS (SELECT 1 FROM r)` : sql``
    }`;
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
      INSERT INTO audit_log (actor_id, address, action, target_kind, target_id, target_user_id, details)
      SELECT ${input.actorId}::int, ${input.audit.address}::text, 'game.voided', 'game', ended.id,
        ${input.userId}::int, ${JSON.stringify(input.audit.details)}::jsonb
      FROM ended
    )
    SELECT EXISTS (SELECT 1 FROM ended) AS done`;
}

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

/** One draw: its statement, and what it answers (decision 052). */
export async function runDraw(db: Db | Tx, write: DrawWrite): Promise<DrawAnswer | undefined> {
  const [row] = await queryPrepared<DrawAnswerRow>(db, drawStatement(write));
  if (!row) return undefined;
  return {
    locked: row.locked,
    drawn: row.drawn,
    transactionId: row.transaction_id,
    saleId: row.sale_id,
    shiftId: row.shift_id,
    endedAt: row.ended_at === null ? null : new Date(row.ended_at),
    ...(write.read.caller &&
      row.player_username !== undefined &&
      row.player_username !== null && {
        player: {
          username: row.player_username,
          fullName: row.player_full_name ?? '',
          shopName: row.player_shop_name ?? null,
        },
      }),
    ...(write.settlement &&
      row.drawn && {
        claims: new Map(
          (row.claims ?? []).map((claim): [number, ClaimStatusInfo] => [
            Number(claim.position),
            {
              status: claim.expired ? 'expired' : 'unpaid',
              paidAt: null,
              shopName: null,
              expiresAt: new Date(claim.expires_at).toISOString(),
            },
          ]),
        ),
      }),
  };
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
