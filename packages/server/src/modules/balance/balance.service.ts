import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents, type Cents } from '@lot/domain/money';
import type {
  Balance,
  DecreaseInput,
  MoneyResult,
  TakeBackInput,
  TopupInput,
  TransferInput,
} from '@lot/domain/schemas/balance';
import { type Db } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { balances, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { scopeCondition } from '../users/users.access.ts';
import { findInScope } from '../users/users.repository.ts';
import { claimOf, storedAnswer, type Claim, type Idempotent } from './idempotency.ts';
import type { AuditAction } from '@lot/domain/schemas/audit';

export async function getBalance(db: Db, caller: Caller, userId: number): Promise<Balance> {
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const [row] = await db.select({ amount: balances.amount }).from(balances).where(eq(balances.userId, userId));
  return { userId, amount: formatCents(row?.amount ?? 0) };
}

type Entry = {
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
};

type Party = { id: number; username: string; fullName: string };

type MoveRow = {
  refusal: 'unreachable' | 'inactive' | 'insufficient' | null;
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
  const { entry, said } = move;
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
    ),
    verdict AS (
      SELECT CASE
        WHEN NOT COALESCE(bool_or(user_id = ${move.target}::int AND reachable), false) THEN 'unreachable'
        WHEN ${move.activeTarget}::boolean AND NOT bool_or(user_id = ${move.target}::int AND status = 'active')
          THEN 'inactive'
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
      INSERT INTO audit_log (actor_id, address, action, target_kind, target_id, target_user_id, details, at)
      SELECT ${entry.actorId}::int, ${move.audit.address}::text, ${move.audit.action}::text, 'transaction', l.id,
        ${move.target}::int, jsonb_build_object('amount', ${decimal(sql`${entry.amount}::bigint`)},
          'from', ${entry.userId}::int, 'to', ${entry.receiverId}::int, 'description', ${entry.description}::text), l.at
      FROM ledger l WHERE EXISTS (SELECT 1 FROM go)
    )
    SELECT v.refusal, a.body AS answer, EXISTS (SELECT 1 FROM recorded) AS applied
    FROM verdict v LEFT JOIN answer a ON true`;
}

/**
 * Runs a money call (one statement, no transaction of its own: decision 024). Without a key it
 * answers the move or its refusal. With one, the key is claimed in the same statement; a key
 * already claimed (a replay, or a concurrent duplicate that got there first) answers the stored
 * response, or 422 when it was claimed for a different request. A refusal looks at the key too: a
 * duplicate that waited for the first call may find the money already gone, and answers the
 * first call's response instead.
 */
async function applyMove(
  db: Db,
  move: Move,
  caller: Caller,
  key: string | undefined,
  request: unknown,
): Promise<Idempotent<MoneyResult>> {
  const claim = key === undefined ? undefined : claimOf(caller.id, key, request);
  const [row] = await queryPrepared<MoveRow>(db, moveStatement(move, claim));
  if (!row) throw new Error('money statement returned no row');
  if (row.applied && row.answer) return { result: row.answer, replayed: false };
  if (claim) {
    const stored = await storedAnswer<MoneyResult>(db, claim);
    if (stored) return { result: stored, replayed: true };
  }
  switch (row.refusal) {
    case 'unreachable': {
      const message = move.targetField ? 'Receiver not found' : 'User not found';
      throw new AppError(
        'NOT_FOUND',
        message,
        move.targetField ? { fieldErrors: { [move.targetField]: message } } : {},
      );
    }
    case 'inactive':
      throw new AppError('UNPROCESSABLE', 'The receiver is inactive', {
        fieldErrors: { receiverId: 'The receiver is inactive' },
      });
    case 'insufficient':
      throw insufficient(move.insufficientMessage);
  }
  throw new Error('money statement neither moved the money nor refused, and its key holds nothing');
}

function insufficient(message: string = MESSAGES.insufficientBalance): AppError {
  return new AppError('UNPROCESSABLE', message, { fieldErrors: { amount: message } });
}

const audited = (action: AuditAction, caller: Caller): Move['audit'] => ({ action, address: caller.address ?? null });

const party = (user: Caller): Party => ({ id: user.id, username: user.username, fullName: user.fullName });

/** Admins create money: the ledger row names the admin as the sender and nothing is debited. */
export function topup(db: Db, caller: Caller, input: TopupInput, key?: string): Promise<Idempotent<MoneyResult>> {
  const move: Move = {
    target: input.userId,
    reach: scopeCondition(caller),
    activeTarget: false,
    deltas: [[input.userId, input.amount]],
    entry: {
      type: 'topup',
      userId: caller.id,
      receiverId: input.userId,
      actorId: caller.id,
      amount: input.amount,
      description: null,
    },
    balanceOf: input.userId,
    said: { message: 'Funds successfully topped up to ', named: true, sender: party(caller), receiver: 'target' },
    audit: audited('money.topup', caller),
  };
  return applyMove(db, move, caller, key, { op: 'topup', ...input });
}

/**
 * Who may receive from whom (docs/product/roles-and-scope.md#transfers): admins anyone, superagents and agents their
 * own scope, users any other active user of role user (to them an inactive user is invisible).
 */
function receiverReach(caller: Caller): SQL {
  return caller.role === 'user'
    ? (and(eq(users.role, 'user'), eq(users.status, 'active'), isNull(users.deletedAt)) as SQL)
    : scopeCondition(caller);
}

/** A transfer from the caller as a move (exported for the benchmark's anchor, which runs the same statement). */
export function transferMove(caller: Caller, input: TransferInput): Move {
  return {
    target: input.receiverId,
    reach: receiverReach(caller),
    targetField: 'receiverId',
    activeTarget: true,
    deltas: [
      [caller.id, -input.amount],
      [input.receiverId, input.amount],
    ],
    entry: {
      type: 'transfer',
      userId: caller.id,
      receiverId: input.receiverId,
      actorId: caller.id,
      amount: input.amount,
      description: null,
    },
    balanceOf: caller.id,
    said: { message: 'Funds successfully transferred to ', named: true, sender: party(caller), receiver: 'target' },
    audit: audited('money.transfer', caller),
  };
}

export async function transfer(
  db: Db,
  caller: Caller,
  input: TransferInput,
  key?: string,
): Promise<Idempotent<MoneyResult>> {
  if (input.receiverId === caller.id) throw AppError.field('receiverId', 'You cannot transfer funds to yourself');
  return applyMove(db, transferMove(caller, input), caller, key, { op: 'transfer', ...input });
}

/**
 * A correction: the admin takes money out of circulation from an account, saying why. Games no
 * longer use it (the server holds and settles their pools itself: decision 013).
 */
export function decrease(db: Db, caller: Caller, input: DecreaseInput, key?: string): Promise<Idempotent<MoneyResult>> {
  const move: Move = {
    target: input.userId,
    reach: scopeCondition(caller),
    activeTarget: false,
    deltas: [[input.userId, -input.amount]],
    entry: {
      type: 'decrease',
      userId: input.userId,
      receiverId: null,
      actorId: caller.id,
      amount: input.amount,
      description: input.description,
    },
    balanceOf: input.userId,
    said: { message: 'Balance decreased successfully', named: false, sender: 'target', receiver: null },
    audit: audited('money.correction', caller),
  };
  return applyMove(db, move, caller, key, { op: 'decrease', ...input });
}

/**
 * A take-back (docs/product/money.md#take-back, decision 015): an admin, super agent or agent takes
 * money back from an account in its scope into its own balance, saying why. It is a transfer the
 * other way round: both balance rows are locked in id order like a transfer's, the account never
 * goes below zero ('You cannot take back more than the balance'), and the ledger row is a
 * `takeback` from the account to the caller with the reason as its description. An inactive
 * account may be taken from (money is often taken back from a shop that closed); a deleted one is
 * out of scope (404).
 */
export async function takeBack(
  db: Db,
  caller: Caller,
  input: TakeBackInput,
  key?: string,
): Promise<Idempotent<MoneyResult>> {
  if (input.userId === caller.id) throw AppError.field('userId', MESSAGES.takeBackFromYourself);
  const move: Move = {
    target: input.userId,
    reach: scopeCondition(caller),
    activeTarget: false,
    insufficientMessage: MESSAGES.takeBackAboveBalance,
    deltas: [
      [input.userId, -input.amount],
      [caller.id, input.amount],
    ],
    entry: {
      type: 'takeback',
      userId: input.userId,
      receiverId: caller.id,
      actorId: caller.id,
      amount: input.amount,
      description: input.reason,
    },
    balanceOf: input.userId,
    said: { message: 'Funds successfully taken back from ', named: true, sender: 'target', receiver: party(caller) },
    audit: audited('money.takeback', caller),
  };
  return applyMove(db, move, caller, key, { op: 'takeback', ...input });
}
