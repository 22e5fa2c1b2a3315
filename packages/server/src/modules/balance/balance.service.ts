import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents, type Cents } from '@lot/domain/money';
import type { Balance, DecreaseInput, MoneyResult, TopupInput, TransferInput } from '@lot/domain/schemas/balance';
import type { Db, Tx } from '../../db/client.ts';
import { balances, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { getTransaction } from '../transactions/transactions.service.ts';
import { findInScope, type UserRow } from '../users/users.repository.ts';
import { withIdempotency, type Idempotent } from './idempotency.ts';

export async function getBalance(db: Db, caller: Caller, userId: number): Promise<Balance> {
  const target = await findInScope(db, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  const [row] = await db.select({ amount: balances.amount }).from(balances).where(eq(balances.userId, userId));
  return { userId, amount: formatCents(row?.amount ?? 0) };
}

/** Locks the balance rows in id order (so concurrent calls never deadlock) and returns them. */
async function lockBalances(tx: Tx, userIds: number[]): Promise<Map<number, Cents>> {
  const rows = await tx
    .select({ userId: balances.userId, amount: balances.amount })
    .from(balances)
    .where(inArray(balances.userId, userIds))
    .orderBy(balances.userId)
    .for('update');
  return new Map(rows.map((row) => [row.userId, row.amount]));
}

async function addToBalance(tx: Tx, userId: number, delta: Cents): Promise<Cents> {
  const [row] = await tx
    .update(balances)
    .set({ amount: sql`${balances.amount} + ${delta}` })
    .where(eq(balances.userId, userId))
    .returning({ amount: balances.amount });
  if (!row) throw new Error(`no balance row for user ${userId}`);
  return row.amount;
}

type Entry = {
  type: 'topup' | 'transfer' | 'decrease';
  userId: number;
  receiverId: number | null;
  actorId: number;
  amount: Cents;
  description?: string | null;
};

/** Writes the ledger row and answers with it and the balance of `balanceOf`. */
async function record(tx: Tx, entry: Entry, message: string, balanceOf: number, balance: Cents): Promise<MoneyResult> {
  const [row] = await tx
    .insert(transactions)
    .values({ ...entry, description: entry.description ?? null })
    .returning({ id: transactions.id });
  if (!row) throw new Error('transaction insert returned no row');
  return {
    message,
    transaction: await getTransaction(tx, row.id),
    balance: { userId: balanceOf, amount: formatCents(balance) },
  };
}

function insufficient(): AppError {
  return new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
    fieldErrors: { amount: MESSAGES.insufficientBalance },
  });
}

/** A live target the caller may reach, read after its balance row is locked. */
async function liveTarget(tx: Tx, caller: Caller, userId: number): Promise<UserRow> {
  const target = await findInScope(tx, caller, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  return target;
}

/** Admins create money: the ledger row names the admin as the sender and nothing is debited. */
export function topup(db: Db, caller: Caller, input: TopupInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'topup', ...input }, async (tx) => {
    await lockBalances(tx, [input.userId]);
    const target = await liveTarget(tx, caller, input.userId);
    const balance = await addToBalance(tx, target.id, input.amount);
    return record(
      tx,
      { type: 'topup', userId: caller.id, receiverId: target.id, actorId: caller.id, amount: input.amount },
      `Funds successfully topped up to ${target.fullName}`,
      target.id,
      balance,
    );
  });
}

/**
 * Who may receive from whom (DESIGN.md section 3): admins anyone, superagents and agents their
 * own scope, users any other active user of role user. Out of reach is 404; inactive is 422.
 */
async function findReceiver(tx: Tx, caller: Caller, receiverId: number): Promise<UserRow> {
  const receiver =
    caller.role === 'user'
      ? (
          await tx
            .select()
            .from(users)
            .where(
              and(
                eq(users.id, receiverId),
                eq(users.role, 'user'),
                eq(users.status, 'active'),
                isNull(users.deletedAt),
              ),
            )
        )[0]
      : await findInScope(tx, caller, receiverId);
  if (!receiver)
    throw new AppError('NOT_FOUND', 'Receiver not found', { fieldErrors: { receiverId: 'Receiver not found' } });
  if (receiver.status !== 'active') {
    throw new AppError('UNPROCESSABLE', 'The receiver is inactive', {
      fieldErrors: { receiverId: 'The receiver is inactive' },
    });
  }
  return receiver;
}

export function transfer(db: Db, caller: Caller, input: TransferInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'transfer', ...input }, async (tx) => {
    if (input.receiverId === caller.id) throw AppError.field('receiverId', 'You cannot transfer funds to yourself');
    const locked = await lockBalances(tx, [caller.id, input.receiverId]);
    const receiver = await findReceiver(tx, caller, input.receiverId);
    if ((locked.get(caller.id) ?? 0) < input.amount) throw insufficient();
    const senderBalance = await addToBalance(tx, caller.id, -input.amount);
    await addToBalance(tx, receiver.id, input.amount);
    return record(
      tx,
      { type: 'transfer', userId: caller.id, receiverId: receiver.id, actorId: caller.id, amount: input.amount },
      `Funds successfully transferred to ${receiver.fullName}`,
      caller.id,
      senderBalance,
    );
  });
}

/** Takes money out of circulation: admins from anyone, everyone else from themselves. */
export function decrease(db: Db, caller: Caller, input: DecreaseInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return withIdempotency(db, caller.id, key, { op: 'decrease', ...input }, async (tx) => {
    if (caller.role !== 'admin' && input.userId !== caller.id) throw new AppError('FORBIDDEN', MESSAGES.forbidden);
    const locked = await lockBalances(tx, [input.userId]);
    const target = await liveTarget(tx, caller, input.userId);
    if ((locked.get(target.id) ?? 0) < input.amount) throw insufficient();
    const balance = await addToBalance(tx, target.id, -input.amount);
    return record(
      tx,
      {
        type: 'decrease',
        userId: target.id,
        receiverId: null,
        actorId: caller.id,
        amount: input.amount,
        description: input.description,
      },
      'Balance decreased successfully',
      target.id,
      balance,
    );
  });
}
