import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type {
  Balance,
  DecreaseInput,
  MoneyResult,
  TakeBackInput,
  TopupInput,
  TransferInput,
} from '@lot/domain/schemas/balance';
import type { AuditAction } from '@lot/domain/schemas/audit';
import { SHIFT_ERROR_CODES } from '@lot/domain/schemas/shifts';
import type { Caller } from '../../lib/caller.ts';
import type { Context } from '../../lib/context.ts';
import type { MoneyKind } from '../../lib/metrics.ts';
import { findInScope } from '../users/users.repository.ts';
import { accountReach, receiverReach } from './balance.access.ts';
import { balanceAmount, runMove, type Move, type Party } from './balance.repository.ts';
import { claimOf, storedAnswer, type Idempotent } from '../../lib/idempotency.ts';

export async function getBalance(ctx: Context, userId: number): Promise<Balance> {
  const target = await findInScope(ctx.db, ctx.caller, userId);
  if (!target) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  return { userId, amount: formatCents((await balanceAmount(ctx.db, userId)) ?? 0) };
}

/**
 * Every money call is counted by its outcome for GET /metrics (decision 026): ok, replayed, or
 * refused (a rule said no, before or in the statement) or error.
 */
const counted = (ctx: Context, kind: MoneyKind, call: () => Promise<Idempotent<MoneyResult>>) =>
  ctx.metrics.countMoney(kind, call());

/**
 * Runs a money call (one statement, no transaction of its own: decision 024; its SQL is
 * balance.repository.ts's `moveStatement`). Without a key it
 * answers the move or its refusal. With one, the key is claimed in the same statement; a key
 * already claimed (a replay, or a concurrent duplicate that got there first) answers the stored
 * response, or 422 when it was claimed for a different request. A refusal looks at the key too: a
 * duplicate that waited for the first call may find the money already gone, and answers the
 * first call's response instead.
 */
async function applyMove(
  ctx: Context,
  move: Move,
  key: string | undefined,
  request: unknown,
): Promise<Idempotent<MoneyResult>> {
  const claim = key === undefined ? undefined : claimOf(ctx.caller.id, key, request);
  const row = await runMove(ctx.db, move, claim);
  if (row.applied && row.answer) return { result: row.answer, replayed: false };
  if (claim) {
    const stored = await storedAnswer<MoneyResult>(ctx.db, claim);
    if (stored) return { result: stored, replayed: true };
  }
  switch (row.refusal) {
    case 'unreachable': {
      const message = move.targetField ? SERVER_MESSAGES.receiverNotFound : SERVER_MESSAGES.userNotFound;
      throw new AppError(
        'NOT_FOUND',
        message,
        move.targetField ? { fieldErrors: { [move.targetField]: message } } : {},
      );
    }
    case 'inactive':
      throw new AppError('UNPROCESSABLE', SERVER_MESSAGES.receiverInactive, {
        fieldErrors: { receiverId: SERVER_MESSAGES.receiverInactive },
      });
    case 'no_shift':
      throw new AppError(SHIFT_ERROR_CODES.noOpenShift, SERVER_MESSAGES.takeBackNoOpenShift, {
        fieldErrors: { fromDrawer: SERVER_MESSAGES.takeBackNoOpenShift },
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
export function topup(ctx: Context, input: TopupInput, key?: string): Promise<Idempotent<MoneyResult>> {
  const { caller } = ctx;
  const move: Move = {
    target: input.userId,
    reach: accountReach(caller),
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
    said: { message: SERVER_MESSAGES.toppedUpTo, named: true, sender: party(caller), receiver: 'target' },
    audit: audited('money.topup', caller),
  };
  return counted(ctx, 'topup', () => applyMove(ctx, move, key, { op: 'topup', ...input }));
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
    said: { message: SERVER_MESSAGES.transferredTo, named: true, sender: party(caller), receiver: 'target' },
    audit: audited('money.transfer', caller),
  };
}

export function transfer(ctx: Context, input: TransferInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return counted(ctx, 'transfer', async () => {
    if (input.receiverId === ctx.caller.id) {
      throw AppError.field('receiverId', SERVER_MESSAGES.transferToYourself);
    }
    return applyMove(ctx, transferMove(ctx.caller, input), key, { op: 'transfer', ...input });
  });
}

/**
 * A correction: the admin takes money out of circulation from an account, saying why. Games no
 * longer use it (the server holds and settles their pools itself: decision 013).
 */
export function decrease(ctx: Context, input: DecreaseInput, key?: string): Promise<Idempotent<MoneyResult>> {
  const { caller } = ctx;
  const move: Move = {
    target: input.userId,
    reach: accountReach(caller),
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
    said: { message: SERVER_MESSAGES.balanceDecreased, named: false, sender: 'target', receiver: null },
    audit: audited('money.correction', caller),
  };
  return counted(ctx, 'decrease', () => applyMove(ctx, move, key, { op: 'decrease', ...input }));
}

/**
 * A take-back (docs/product/money.md#take-back, decision 015): an admin, super agent or agent takes
 * money back from an account in its scope into its own balance, saying why. It is a transfer the
 * other way round: both balance rows are locked in id order like a transfer's, the account never
 * goes below zero ('You cannot take back more than the balance'), and the ledger row is a
 * `takeback` from the account to the caller with the reason as its description. An inactive
 * account may be taken from (money is often taken back from a shop that closed); a deleted one is
 * out of scope (404). `fromDrawer`: the cash was taken from the shop's drawer, so the same statement
 * records the pickup on its open shift (decision 091; no open shift: 409 NO_OPEN_SHIFT).
 */
export function takeBack(ctx: Context, input: TakeBackInput, key?: string): Promise<Idempotent<MoneyResult>> {
  return counted(ctx, 'take_back', async () => takeBackMove(ctx, input, key));
}

function takeBackMove(ctx: Context, input: TakeBackInput, key?: string): Promise<Idempotent<MoneyResult>> {
  const { caller } = ctx;
  if (input.userId === caller.id) throw AppError.field('userId', SERVER_MESSAGES.takeBackFromYourself);
  const move: Move = {
    target: input.userId,
    reach: accountReach(caller),
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
    said: { message: SERVER_MESSAGES.takenBackFrom, named: true, sender: 'target', receiver: party(caller) },
    audit: audited('money.takeback', caller),
    ...(input.fromDrawer && { drawer: { takenBy: caller.fullName } }),
  };
  return applyMove(ctx, move, key, { op: 'takeback', ...input });
}
