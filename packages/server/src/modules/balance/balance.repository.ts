import { eq, sql, type SQL } from 'drizzle-orm';
import type { Cents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import type { AuditAction } from '@lot/domain/schemas/audit';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { balances } from '../../db/schema.ts';
import type { Claim } from '../../lib/idempotency.ts';
import { insertAuditRow } from '../../lib/audit.ts';

/**
 * The balance module's SQL (docs/ARCHITECTURE.md#layers): a balance, the money statement every
 * money call runs (decisions 012, 024; it claims the call's Idempotency-Key, lib/idempotency.ts),
 * and the ledger check's sums (`npm run ledger:check`, ledger.ts).
 */

/** A database handle or an open transaction: what these functions read and write through. */
export type Queryable = Db | Tx;

/** The amount of one balance in cents, or nothing when the user has no balance row. */
export async function balanceAmount(db: Queryable, userId: number): Promise<number | undefined> {
  const [row] = await db.select({ amount: balances.amount }).from(balances).where(eq(balances.userId, userId));
  return row?.amount;
}

export type Entry = {
  type: 'topup' | 'transfer' | 'decrease' | 'takeback';
  /** The party whose money leaves (for a top-up the admin who made it). */
  userId: number;
  receiverId: number | null;
  actorId: number;
  amount: Cents;
  description: string | null;
};

/** One change of balances: the only way a balance changes outside a game. */
export type Move = {
  /** The party the call acts on: the caller must reach it (else 404), the answer names it. */
  target: number;
  /** Who the caller may reach, as a condition on `users` (balance.access.ts). */
  reach: SQL;
  /** The field a 404 names (a transfer's receiver); without it the 404 is 'User not found'. */
  targetField?: 'receiverId';
  /** Transfers: the target must be active too (else 422). */
  activeTarget: boolean;
  /** The message of a refusal for a balance that would go below zero; 'Insufficient balance' without it. */
  insufficientMessage?: string;
  /** Amounts added to balances; no balance may end below zero (else 422). */
  deltas: [userId: number, delta: Cents][];
  entry: Entry;
  /** Whose new balance the answer shows. */
  balanceOf: number;
  /** What the answer says: its message (followed by the target's full name when `named`), and who
   * the ledger row names as sender and receiver ('target': the party the call acts on). */
  said: { message: string; named: boolean; sender: Party | 'target'; receiver: Party | 'target' | null };
  /** The audit trail's row (decision 029), written by the same statement when the money moves. */
  audit: { action: AuditAction; address: string | null };
  /**
   * A take-back "from the drawer" (decision 091): the target's open shift (held FOR SHARE, so it
   * cannot close under the statement; none: refused) gets a pickup of the amount, naming the ledger
   * row, taken by `takenBy`, with the entry's description as its reason.
   */
  drawer?: { takenBy: string };
};

export type Party = { id: number; username: string; fullName: string };

export type MoveRow = {
  refusal: 'unreachable' | 'inactive' | 'no_shift' | 'insufficient' | null;
  /** The answer the call gives (and a keyed call stored), when nothing refused it. */
  answer: MoneyResult | null;
  /** Whether this statement moved the money: not when a keyed call found its key already claimed. */
  applied: boolean;
};

const partyJson = (party: Party | 'target') =>
  party === 'target'
    ? sql`jsonb_build_object('id', t.user_id, 'username', t.username, 'fullName', t.full_name)`
    : sql`jsonb_build_object('id', ${party.id}::int, 'username', ${party.username}::text, 'fullName', ${party.fullName}::text)`;

/** An instant as the API writes it (`Date.toISOString`): both truncate to the millisecond. */
const ISO_INSTANT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/** Cents as the API writes money (`formatCents`): `12.50`. */
const decimal = (cents: SQL) => sql`((${cents})::numeric / 100)::numeric(20, 2)::text`;

/**
 * A money call as ONE statement (docs/decisions/012, 024): lock the parties' balance rows, check,
 * build the answer, claim the Idempotency-Key with it (a keyed call), move, write the ledger row.
 * Why it is safe under concurrency, in short (the records have the long form):
 * - `parties` locks the balance rows in id order (docs/product/money.md#locking: no deadlock); after waiting
 *   for a lock, FOR UPDATE returns the newest committed version, so the checks see current amounts.
 * - `verdict` aggregates over every party, so all locks are held before anything is written.
 * - `claim` inserts the key only when nothing refused the call, so a refused call leaves no key. A
 *   second call with the same key waits on the first's uncommitted key and then claims nothing;
 *   `moved` and `recorded` write only when the call was claimed (or carries no key), so money moves
 *   once. The ledger row's id and time are taken before, so the stored answer names them.
 * - `audited` appends the audit row (decision 029) under the same condition as the ledger row, so
 *   a refused call and a replay write none; its trigger locks only the actor's chain head, after
 *   every balance lock, so it adds no lock across actors and cannot deadlock with another call.
 * - `moved` sets `p.amount + delta`: the amount `parties` read under the lock this statement holds
 *   until it ends, so it is the row's newest. Not `b.amount + delta`: PostgreSQL checks CHECK
 *   (amount >= 0) on the row computed from the snapshot's version before it notices the row was
 *   replaced, so money that arrived since the snapshot would make a covered debit fail.
 */
export function moveStatement(move: Move, claim?: Claim): SQL {
  const { entry, said, drawer } = move;
  const deltas = sql.join(
    move.deltas.map(([userId, delta]) => sql`(${userId}::int, ${delta}::bigint)`),
    sql`, `,
  );
  return sql`
    WITH deltas (user_id, delta) AS (VALUES ${deltas}),
    parties AS MATERIALIZED (
      SELECT b.user_id, b.amount, d.delta, users.username, users.full_name, users.status,
        COALESCE(${move.reach}, false) AS reachable
      FROM deltas d
      JOIN balances b ON b.user_id = d.user_id
      JOIN users ON users.id = b.user_id
      ORDER BY b.user_id
      FOR UPDATE OF b
    ),${
      drawer
        ? sql`
    shift AS MATERIALIZED (
      SELECT id FROM shifts WHERE user_id = ${move.target}::int AND closed_at IS NULL FOR SHARE
    ),`
        : sql``
    }
    verdict AS (
      SELECT CASE
        WHEN NOT COALESCE(bool_or(user_id = ${move.target}::int AND reachable), false) THEN 'unreachable'
        WHEN ${move.activeTarget}::boolean AND NOT bool_or(user_id = ${move.target}::int AND status = 'active')
          THEN 'inactive'${
            drawer
              ? sql`
        WHEN NOT EXISTS (SELECT 1 FROM shift) THEN 'no_shift'`
              : sql``
          }
        WHEN count(*) < ${move.deltas.length}::int OR bool_or(amount + delta < 0) THEN 'insufficient'
      END AS refusal
      FROM parties
    ),
    ledger AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('transactions', 'id'))::int AS id, now() AS at
      FROM verdict WHERE refusal IS NULL
    ),
    answer AS (
      SELECT jsonb_build_object(
        'message', ${said.message}::text || ${said.named ? sql`t.full_name` : sql`''`},
        'transaction', jsonb_build_object(
          'id', l.id, 'type', ${entry.type}::text, 'userId', ${entry.userId}::int,
          'receiverId', ${entry.receiverId}::int, 'amount', ${decimal(sql`${entry.amount}::bigint`)},
          'status', 'completed', 'description', ${entry.description}::text,
          'createdAt', to_char(l.at AT TIME ZONE 'UTC', ${ISO_INSTANT}::text),
          'user', ${partyJson(said.sender)},
          'receiver', ${said.receiver === null ? sql`NULL::jsonb` : partyJson(said.receiver)},
          'gameCode', NULL, 'gameNumber', NULL),
        'balance', jsonb_build_object('userId', ${move.balanceOf}::int, 'amount', ${decimal(sql`s.amount + s.delta`)})
      ) AS body
      FROM ledger l
      JOIN parties t ON t.user_id = ${move.target}::int
      JOIN parties s ON s.user_id = ${move.balanceOf}::int
    ),
    go AS (${
      claim
        ? sql`INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
          SELECT ${claim.userId}::int, ${claim.key}::text, ${claim.requestHash}::text, 200, body FROM answer
          ON CONFLICT (user_id, key) DO NOTHING
          RETURNING 1`
        : sql`SELECT 1 FROM answer`
    }),
    moved AS (
      UPDATE balances b SET amount = p.amount + p.delta
      FROM parties p
      WHERE b.user_id = p.user_id AND EXISTS (SELECT 1 FROM go)
    ),
    recorded AS (
      INSERT INTO transactions (id, type, user_id, receiver_id, actor_id, amount, description, created_at)
      OVERRIDING SYSTEM VALUE
      SELECT l.id, ${entry.type}::text, ${entry.userId}::int, ${entry.receiverId}::int, ${entry.actorId}::int,
        ${entry.amount}::bigint, ${entry.description}::text, l.at
      FROM ledger l WHERE EXISTS (SELECT 1 FROM go)
      RETURNING id
    ),
    audited AS (
      ${insertAuditRow('address', 'targetKind', 'targetId', 'targetUserId', 'details', 'at')}
      SELECT ${entry.actorId}::int, ${move.audit.address}::text, ${move.audit.action}::text, 'transaction', l.id,
        ${move.target}::int, jsonb_build_object('amount', ${decimal(sql`${entry.amount}::bigint`)},
          'from', ${entry.userId}::int, 'to', ${entry.receiverId}::int, 'description', ${entry.description}::text)${
            drawer ? sql` || jsonb_build_object('fromDrawerOfShift', (SELECT id FROM shift))` : sql``
          }, l.at
      FROM ledger l WHERE EXISTS (SELECT 1 FROM go)
    )${
      drawer
        ? sql`,
    picked_up AS (
      INSERT INTO shift_cash_movements (shift_id, kind, amount, reason, taken_by, recorded_by, transaction_id, created_at)
      SELECT s.id, 'pickup', ${entry.amount}::bigint, ${entry.description}::text, ${drawer.takenBy}::text,
        ${entry.actorId}::int, l.id, l.at
      FROM ledger l CROSS JOIN shift s WHERE EXISTS (SELECT 1 FROM go)
    )`
        : sql``
    }
    SELECT v.refusal, a.body AS answer, EXISTS (SELECT 1 FROM recorded) AS applied
    FROM verdict v LEFT JOIN answer a ON true`;
}

/** Runs a money call's one statement (no transaction of its own: decision 024) and answers its row. */
export async function runMove(db: Queryable, move: Move, claim?: Claim): Promise<MoveRow> {
  const [row] = await queryPrepared<MoveRow>(db, moveStatement(move, claim));
  if (!row) throw new Error('money statement returned no row');
  return row;
}

/** The ledger check's figures (ledger.ts), as the database sums them. */

export type LedgerMismatchRow = { user_id: number; balance: string; ledger: string };

export type LedgerTotalsRow = {
  users: string;
  negative: string;
  balances: string;
  topups: string;
  withdrawn: string;
  transactions: string;
  holds: string;
  rollups: string;
};

const GAME_SUMS = sql`count(*) AS games, sum(selected_count) AS numbers, sum(pool) AS pool,
  sum(total_prize) AS prizes, sum(commission) AS commission`;
const DAY = sql`(created_at AT TIME ZONE 'UTC')::date`;
/** Rollup cell and recomputed cell, missing ones as zeros: a row that differs counts. */
const differs = (a: string, b: string, columns: string[]) =>
  sql.raw(
    `ROW(${columns.map((c) => `COALESCE(${a}.${c}, 0)`).join(', ')}) <> ROW(${columns.map((c) => `COALESCE(${b}.${c}, 0)`).join(', ')})`,
  );
const FIGURES = ['games', 'numbers', 'pool', 'prizes', 'commission'];

/** The daily rollups the reports read (decision 023), each summed again from what it rolls up. */
const ROLLUP_MISMATCHES = sql`
  (SELECT count(*) FROM sales_daily d
    FULL JOIN (SELECT COALESCE(superagent_id, 0) AS superagent_id, ${DAY} AS day, ${GAME_SUMS} FROM games GROUP BY 1, 2) g
      ON g.superagent_id = d.superagent_id AND g.day = d.day
    WHERE ${differs('d', 'g', FIGURES)})
  + (SELECT count(*) FROM branch_daily d
    FULL JOIN (SELECT COALESCE(superagent_id, 0) AS superagent_id,
                 CASE WHEN parent_id IS NULL OR parent_id = superagent_id THEN user_id ELSE parent_id END AS branch_id,
                 ${DAY} AS day, ${GAME_SUMS} FROM games GROUP BY 1, 2, 3) g
      ON g.superagent_id = d.superagent_id AND g.branch_id = d.branch_id AND g.day = d.day
    WHERE ${differs('d', 'g', FIGURES)})
  + (SELECT count(*) FROM money_daily d
    FULL JOIN (SELECT day, from_top, to_top, type, sum(amount) AS amount FROM (
                 SELECT ${DAY} AS day, account_top(user_id) AS from_top, account_top(receiver_id) AS to_top, type, amount
                 FROM transactions WHERE type IN ('topup', 'transfer', 'takeback') AND status = 'completed') m
               WHERE from_top <> to_top GROUP BY 1, 2, 3, 4) t
      ON t.day = d.day AND t.from_top = d.from_top AND t.to_top = d.to_top AND t.type = d.type
    WHERE ${differs('d', 't', ['amount'])})`;

/** Balances that differ from the sum of their ledger rows (ledger.ts says which rows move money). */
export const LEDGER_MISMATCHES = sql`
    WITH flows AS (
      SELECT receiver_id AS user_id, amount FROM transactions
        WHERE status = 'completed' AND receiver_id IS NOT NULL
      UNION ALL
      SELECT user_id, -amount FROM transactions
        WHERE status IN ('completed', 'pending') AND type IN ('transfer', 'decrease', 'game', 'takeback')
    ), sums AS (
      SELECT user_id, sum(amount) AS total FROM flows GROUP BY user_id
    )
    SELECT b.user_id, b.amount::text AS balance, COALESCE(s.total, 0)::text AS ledger
    FROM balances b FULL JOIN sums s ON s.user_id = b.user_id
    WHERE COALESCE(b.amount, 0) <> COALESCE(s.total, 0)
    ORDER BY 1`;

/** The ledger's totals, the holds that disagree with their games and the rollup cells that differ. */
export const LEDGER_TOTALS = sql`
      SELECT
        (SELECT count(*) FROM balances)::text AS users,
        (SELECT count(*) FROM balances WHERE amount < 0)::text AS negative,
        (SELECT COALESCE(sum(amount), 0) FROM balances)::text AS balances,
        (SELECT COALESCE(sum(amount), 0) FROM transactions WHERE status = 'completed' AND type = 'topup')::text AS topups,
        (SELECT COALESCE(sum(amount), 0) FROM transactions WHERE status IN ('completed', 'pending') AND type IN ('decrease', 'game'))::text AS withdrawn,
        (SELECT count(*) FROM transactions)::text AS transactions,
        (SELECT count(*) FROM game_rounds r LEFT JOIN transactions t ON t.id = r.transaction_id
          WHERE (r.status IN ('drawing', 'settled', 'voided')) AND (t.id IS NULL
            OR t.status <> CASE r.status WHEN 'drawing' THEN 'pending' WHEN 'settled' THEN 'completed' ELSE 'voided' END
            OR t.amount <> r.bet_amount * jsonb_array_length(r.entries)))::text AS holds,
        (${ROLLUP_MISMATCHES})::text AS rollups`;

export function ledgerMismatches(db: Queryable): Promise<LedgerMismatchRow[]> {
  return queryRows<LedgerMismatchRow>(db, LEDGER_MISMATCHES);
}

export async function ledgerTotals(db: Queryable): Promise<LedgerTotalsRow> {
  const [totals] = await queryRows<LedgerTotalsRow>(db, LEDGER_TOTALS);
  if (!totals) throw new Error('ledger totals query returned no row');
  return totals;
}
