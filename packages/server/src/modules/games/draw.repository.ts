import { sql, type SQL } from 'drizzle-orm';
import type { Participant } from '@lot/domain/game';
import type { ClaimStatusInfo } from '@lot/domain/schemas/games';
import type { Db, Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { insertAuditRow } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { gamesAccess } from './games.access.ts';
import type { StoredDraw } from './games.repository.ts';

/**
 * The draw's write (decisions 030, 052, 066): what `planDraw` (draw-plan.ts) plans, the one
 * statement that writes it, composed of named parts, and what it answers. The rest of a game's
 * data access is games.repository.ts.
 */

/** One audit row a game step writes in its statement (decision 029). */
export type StepAudit = { action: 'game.frozen' | 'game.drawn' | 'game.settled'; details: Record<string, unknown> };

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
  /**
   * The freeze (the first step: entries fixed, pool held): when, and — LOT-DRAW-2 — round R and L,
   * the latest round public just before it (decision 076).
   */
  freeze?: {
    at: Date;
    beaconRound: number | null;
    latestRound: number | null;
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
        ${write.freeze ? sql`, frozen_at = ${write.freeze.at.toISOString()}::timestamptz, beacon_round = ${write.freeze.beaconRound}::bigint, beacon_latest_round = ${write.freeze.latestRound}::bigint${witnessedFreeze(write)}` : sql``}
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
        ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details')}
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
