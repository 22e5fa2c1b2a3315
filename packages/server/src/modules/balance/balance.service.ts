import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents, type Cents } from '@lot/domain/money';
import type { Balance, DecreaseInput, MoneyResult, TopupInput, TransferInput } from '@lot/domain/schemas/balance';
import type { Db, Tx } from '../../db/client.ts';
import { balances, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { findInScope, scopeCondition, type UserRow } from '../users/users.repository.ts';
import { withIdempotency, type Idempotent } from './idempotency.ts';

export async function getBalance(db: Db, caller: Caller, userId: number): Promise<Balance> {
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const [row] = await db.select({ amount: balances.amount }).from(balances).where(eq(balances.userId, userId));
  return { userId, amount: formatCents(row?.amount ?? 0) };
}

/** What a money call reads of each party: all the answer and the rules need, nothing more. */
type PartyUser = Pick<UserRow, 'id' | 'username' | 'fullName' | 'status'>;
type Party = { user: PartyUser; amount: Cents; reachable: boolean };

/**
 * Locks the balance rows of these users in id order (so concurrent calls never deadlock) and
 * reads, in the same statement, who they are and whether the caller may reach each one.
 */
async function lockParties(tx: Tx, ids: number[], reach: SQL): Promise<Map<number, Party>> {
  const rows = await tx
    .select({
      user: { id: users.id, username: users.username, fullName: users.fullName, status: users.status },
      amount: balances.amount,
      reachable: sql<boolean>`COALESCE(${reach}, false)`,
    })
    .from(balances)
    .innerJoin(users, eq(users.id, balances.userId))
    .where(inArray(balances.userId, ids))
    .orderBy(balances.userId)
    .for('update', { of: balances });
  return new Map(rows.map((row) => [row.user.id, row]));
}

/** Applies the deltas in one statement and returns the new balances. */
async function move(tx: Tx, deltas: [userId: number, delta: Cents][]): Promise<Map<number, Cents>> {
  const cases = sql.join(
    deltas.map(([userId, delta]) => sql`WHEN ${userId} THEN ${delta}::bigint`),
    sql` `,
  );
  const rows = await tx
    .update(balances)
    .set({ amount: sql`${balances.amount} + CASE ${balances.userId} ${cases} END` })
    .where(
      inArray(
        balances.userId,
        deltas.map(([userId]) => userId),
      ),
    )
    .returning({ userId: balances.userId, amount: balances.amount });
  return new Map(rows.map((row) => [row.userId, row.amount]));
}

type Entry = {
  type: 'topup' | 'transfer' | 'decrease';
  sender: PartyUser | Caller;
  receiver: PartyUser | null;
  actorId: number;
  amount: Cents;
  description?: string | null;
};

const party = (user: PartyUser | Caller) => ({ id: user.id, username: user.username, fullName: user.fullName });

/** Writes the ledger row and answers with it (built from what was read) and the balance of `balanceOf`. */
async function record(tx: Tx, entry: Entry, message: string, balanceOf: number, balance: Cents): Promise<MoneyResult> {
  const [row] = await tx
    .insert(transactions)
    .values({
      type: entry.type,
      userId: entry.sender.id,
      receiverId: entry.receiver?.id ?? null,
      actorId: entry.actorId,
      amount: entry.amount,
      description: entry.description ?? null,
    })
    .returning({ id: transactions.id, status: transactions.status, createdAt: transactions.createdAt });
  if (!row) throw new Error('transaction insert returned no row');
  return {
    message,
    transaction: {
      id: row.id,
      type: entry.type,
      userId: entry.sender.id,
      receiverId: entry.receiver?.id ?? null,
      amount: formatCents(entry.amount),
      status: row.status,
      description: entry.description ?? null,
      createdAt: row.createdAt.toISOString(),
      user: party(entry.sender),
      receiver: entry.receiver ? party(entry.receiver) : null,
    },
    balance: { userId: balanceOf, amount: formatCents(balance) },
  };
}

function insufficient(): AppError {
  return new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
    fieldErrors: { amount: MESSAGES.insufficientBalance },
  });
}

/** The locked party the caller may reach, or 404 as if it did not exist. */
function reachable(parties: Map<number, Party>, userId: number, field?: string): Party {
  const found = parties.get(userId);
  if (!found?.reachable) {
    const message = field ? 'Receiver not found' : 'User not found';
    throw new AppError('NOT_FOUND', message, field ? { fieldErrors: { [field]: message } } : {});
  }
  return found;
}

/** Admins create money: the ledger row names the admin as the sender and nothing is debited. */
export function topup(db: Db, caller: Caller, input: TopupInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'topup', ...input }, async (tx) => {
    const target = reachable(await lockParties(tx, [input.userId], scopeCondition(caller)), input.userId);
    const after = await move(tx, [[target.user.id, input.amount]]);
    return record(
      tx,
      { type: 'topup', sender: caller, receiver: target.user, actorId: caller.id, amount: input.amount },
      `Funds successfully topped up to ${target.user.fullName}`,
      target.user.id,
      after.get(target.user.id) ?? 0,
    );
  });
}

/**
 * Who may receive from whom (DESIGN.md section 3): admins anyone, superagents and agents their
 * own scope, users any other active user of role user (to them an inactive user is invisible).
 */
function receiverReach(caller: Caller): SQL {
  return caller.role === 'user'
    ? (and(eq(users.role, 'user'), eq(users.status, 'active'), isNull(users.deletedAt)) as SQL)
    : scopeCondition(caller);
}

export function transfer(db: Db, caller: Caller, input: TransferInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'transfer', ...input }, async (tx) => {
    if (input.receiverId === caller.id) throw AppError.field('receiverId', 'You cannot transfer funds to yourself');
    const parties = await lockParties(tx, [caller.id, input.receiverId], receiverReach(caller));
    const receiver = reachable(parties, input.receiverId, 'receiverId');
    if (receiver.user.status !== 'active') {
      throw new AppError('UNPROCESSABLE', 'The receiver is inactive', {
        fieldErrors: { receiverId: 'The receiver is inactive' },
      });
    }
    if ((parties.get(caller.id)?.amount ?? 0) < input.amount) throw insufficient();
    const after = await move(tx, [
      [caller.id, -input.amount],
      [receiver.user.id, input.amount],
    ]);
    return record(
      tx,
      { type: 'transfer', sender: caller, receiver: receiver.user, actorId: caller.id, amount: input.amount },
      `Funds successfully transferred to ${receiver.user.fullName}`,
      caller.id,
      after.get(caller.id) ?? 0,
    );
  });
}

/** Takes money out of circulation: admins from anyone, everyone else from themselves. */
export function decrease(db: Db, caller: Caller, input: DecreaseInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'decrease', ...input }, async (tx) => {
    if (caller.role !== 'admin' && input.userId !== caller.id) throw new AppError('FORBIDDEN', MESSAGES.forbidden);
    const target = reachable(await lockParties(tx, [input.userId], scopeCondition(caller)), input.userId);
    if (target.amount < input.amount) throw insufficient();
    const after = await move(tx, [[target.user.id, -input.amount]]);
    return record(
      tx,
      {
        type: 'decrease',
        sender: target.user,
        receiver: null,
        actorId: caller.id,
        amount: input.amount,
        description: input.description,
      },
      'Balance decreased successfully',
      target.user.id,
      after.get(target.user.id) ?? 0,
    );
  });
}
