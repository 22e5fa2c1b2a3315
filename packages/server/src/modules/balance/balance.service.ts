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
import { queryPrepared, type Db, type Tx } from '../../db/client.ts';
import { balances, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { scopeCondition } from '../users/users.access.ts';
import { findInScope, type UserRow } from '../users/users.repository.ts';
import { withIdempotentStatement, type Idempotent } from './idempotency.ts';

export async function getBalance(db: Db, caller: Caller, userId: number): Promise<Balance> {
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const [row] = await db.select({ amount: balances.amount }).from(balances).where(eq(balances.userId, userId));
  return { userId, amount: formatCents(row?.amount ?? 0) };
}

/** What a money call reads of the party it acts on: all the answer and the rules need, nothing more. */
type PartyUser = Pick<UserRow, 'id' | 'username' | 'fullName' | 'status'>;

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
};

type MoveRow = {
  refusal: 'unreachable' | 'inactive' | 'insufficient' | null;
  username: string | null;
  full_name: string | null;
  target_status: PartyUser['status'] | null;
  balance: string | null;
  id: number | null;
  status: 'completed' | 'pending' | 'failed' | null;
  created_at: string | Date | null;
};

type Moved = {
  target: PartyUser;
  balance: Cents;
  ledger: { id: number; status: 'completed' | 'pending' | 'failed'; createdAt: Date };
};

/**
 * A money call as ONE statement (docs/decisions/012): lock the parties' balance rows, check,
 * move, write the ledger row, and answer what the service needs or which check refused it.
 * Without an Idempotency-Key it runs alone (a statement is atomic); with one, inside the key's
 * transaction. Why it is safe under concurrency, in short (the record has the long form):
 * - `parties` locks the balance rows in id order (docs/product/money.md#locking: no deadlock); after waiting
 *   for a lock, FOR UPDATE returns the newest committed version, so the checks see current amounts.
 * - `verdict` aggregates over every party, so all locks are held before anything is written.
 * - `moved` sets `p.amount + delta`: the amount `parties` read under the lock this statement holds
 *   until it ends, so it is the row's newest. Not `b.amount + delta`: PostgreSQL checks CHECK
 *   (amount >= 0) on the row computed from the snapshot's version before it notices the row was
 *   replaced, so money that arrived since the snapshot would make a covered debit fail.
 * - `moved` and `recorded` write only when `verdict` found nothing wrong; a refusal changes nothing.
 */
export function moveStatement(move: Move): SQL {
  const { entry } = move;
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
    moved AS (
      UPDATE balances b SET amount = p.amount + p.delta
      FROM parties p, verdict v
      WHERE b.user_id = p.user_id AND v.refusal IS NULL
      RETURNING b.user_id, b.amount
    ),
    recorded AS (
      INSERT INTO transactions (type, user_id, receiver_id, actor_id, amount, description)
      SELECT ${entry.type}::text, ${entry.userId}::int, ${entry.receiverId}::int, ${entry.actorId}::int,
        ${entry.amount}::bigint, ${entry.description}::text
      FROM verdict WHERE refusal IS NULL
      RETURNING id, status, created_at
    )
    SELECT v.refusal, t.username, t.full_name, t.status AS target_status, m.amount::text AS balance,
      r.id, r.status, r.created_at
    FROM verdict v
    LEFT JOIN parties t ON t.user_id = ${move.target}::int
    LEFT JOIN moved m ON m.user_id = ${move.balanceOf}::int
    LEFT JOIN recorded r ON true`;
}

async function applyMove(runner: Db | Tx, move: Move): Promise<Moved> {
  const [row] = await queryPrepared<MoveRow>(runner, moveStatement(move));
  if (!row) throw new Error('money statement returned no row');
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
  const { username, full_name: fullName, target_status: status, balance, id, created_at: createdAt } = row;
  const ledgerStatus = row.status;
  if (username === null || fullName === null || status === null || balance === null) {
    throw new Error('money statement returned no target or balance');
  }
  if (id === null || ledgerStatus === null || createdAt === null) {
    throw new Error('money statement wrote no ledger row');
  }
  return {
    target: { id: move.target, username, fullName, status },
    balance: Number(balance),
    // node-postgres hands raw timestamps over as text, PGlite as text or Date: Date reads both.
    ledger: { id, status: ledgerStatus, createdAt: new Date(createdAt) },
  };
}

const party = (user: PartyUser | Caller) => ({ id: user.id, username: user.username, fullName: user.fullName });

/** The answer to a money call: the ledger row as written and the balance of `move.balanceOf`. */
function answer(
  move: Move,
  moved: Moved,
  sender: PartyUser | Caller,
  message: string,
  receiver: PartyUser | Caller | null = move.entry.receiverId === null ? null : moved.target,
): MoneyResult {
  const { entry } = move;
  return {
    message,
    transaction: {
      id: moved.ledger.id,
      type: entry.type,
      userId: entry.userId,
      receiverId: entry.receiverId,
      amount: formatCents(entry.amount),
      status: moved.ledger.status,
      description: entry.description,
      createdAt: moved.ledger.createdAt.toISOString(),
      user: party(sender),
      receiver: receiver ? party(receiver) : null,
      gameCode: null,
    },
    balance: { userId: move.balanceOf, amount: formatCents(moved.balance) },
  };
}

function insufficient(message: string = MESSAGES.insufficientBalance): AppError {
  return new AppError('UNPROCESSABLE', message, { fieldErrors: { amount: message } });
}

/** Admins create money: the ledger row names the admin as the sender and nothing is debited. */
export function topup(db: Db, caller: Caller, input: TopupInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotentStatement(db, caller.id, key, { op: 'topup', ...input }, async (runner) => {
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
    };
    const moved = await applyMove(runner, move);
    return answer(move, moved, caller, `Funds successfully topped up to ${moved.target.fullName}`);
  });
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
  };
}

export function transfer(db: Db, caller: Caller, input: TransferInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotentStatement(db, caller.id, key, { op: 'transfer', ...input }, async (runner) => {
    if (input.receiverId === caller.id) throw AppError.field('receiverId', 'You cannot transfer funds to yourself');
    const move = transferMove(caller, input);
    const moved = await applyMove(runner, move);
    return answer(move, moved, caller, `Funds successfully transferred to ${moved.target.fullName}`);
  });
}

/**
 * A correction: the admin takes money out of circulation from an account, saying why. Games no
 * longer use it (the server holds and settles their pools itself: decision 013).
 */
export function decrease(db: Db, caller: Caller, input: DecreaseInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotentStatement(db, caller.id, key, { op: 'decrease', ...input }, async (runner) => {
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
    };
    const moved = await applyMove(runner, move);
    return answer(move, moved, moved.target, 'Balance decreased successfully');
  });
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
export function takeBack(db: Db, caller: Caller, input: TakeBackInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotentStatement(db, caller.id, key, { op: 'takeback', ...input }, async (runner) => {
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
    };
    const moved = await applyMove(runner, move);
    return answer(move, moved, moved.target, `Funds successfully taken back from ${moved.target.fullName}`, caller);
  });
}
