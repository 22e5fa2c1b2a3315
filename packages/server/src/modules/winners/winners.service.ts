import { AppError } from '@lot/domain/errors';
import { positionTaken, SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { EffectiveWinners, Winner, WinnerInput } from '@lot/domain/schemas/winners';
import { byCaller, changedFields, recordAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import {
  deleteWinnerRow,
  effectiveWinners,
  findWinner,
  insertWinner,
  isPositionTaken,
  selectUserWinners,
  selectWinnerPage,
  updateWinnerRow,
  type WinnerValues,
} from './winners.repository.ts';

type Db = AppContext['db'];

/** Admin list: everything, or one user's, or the global ones. */
export function listWinners(
  ctx: Context,
  filter: { userId?: number | 'global'; limit: number; offset: number },
): Promise<{ items: Winner[]; total: number }> {
  return selectWinnerPage(ctx.db, filter.userId, filter);
}

/** Admins manage anyone's and the global ones; a user only their own. */
function assertManages(caller: Caller, userId: number | null): void {
  if (caller.role === 'admin') return;
  if (caller.role !== 'user' || userId !== caller.id) {
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.winnersOwnOnly);
  }
}

/** The player a configuration belongs to must be a live user of role user. */
async function assertPlayer(db: Db, userId: number): Promise<void> {
  const target = await findLiveUserById(db, userId);
  if (!target)
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound, {
      fieldErrors: { userId: SERVER_MESSAGES.userNotFound },
    });
  if (target.role !== 'user') throw AppError.field('userId', SERVER_MESSAGES.winnersBelongToUser);
}

export async function listUserWinners(ctx: Context, userId: number): Promise<Winner[]> {
  assertManages(ctx.caller, userId);
  return selectUserWinners(ctx.db, userId);
}

/** A winner form as the columns it sets (the percentage is in basis points already). */
const valuesOf = (input: WinnerInput): WinnerValues => ({
  name: input.name,
  percentBps: input.percent,
  position: input.position,
  description: input.description ?? null,
  isActive: input.isActive,
});

export async function createWinner(ctx: Context, input: WinnerInput): Promise<Winner> {
  const { db, caller } = ctx;
  // A user's form has no user field: their own. An admin's empty user means global.
  const userId = input.userId ?? (caller.role === 'user' ? caller.id : null);
  assertManages(caller, userId);
  if (userId !== null) await assertPlayer(db, userId);
  return db
    .transaction(async (tx) => {
      const winner = await getWinner(tx, await insertWinner(tx, userId, valuesOf(input)));
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'winner.created',
        targetKind: 'winner',
        targetId: winner.id,
        targetUserId: winner.userId,
        details: auditedFields(winner),
      });
      return winner;
    })
    .catch(refusePositionTaken(input.position));
}

/**
 * One prize per position (decision 035): the database's unique index refuses an active configuration
 * on a position another active one of the same owner has, so two concurrent saves cannot both pass.
 * This turns its refusal into the form's message on the position.
 */
function refusePositionTaken(position: number) {
  return (error: unknown): never => {
    if (!isPositionTaken(error)) throw error;
    const message = positionTaken(position);
    throw new AppError('CONFLICT', message, { fieldErrors: { position: message } });
  };
}

/** What the audit trail keeps of a winner setting. */
const auditedFields = (w: Winner) => ({
  name: w.name,
  percent: w.percent,
  position: w.position,
  description: w.description,
  isActive: w.isActive,
});

async function getWinner(db: Parameters<typeof findWinner>[0], id: number): Promise<Winner> {
  const winner = await findWinner(db, id);
  if (!winner) throw new AppError('NOT_FOUND', SERVER_MESSAGES.winnerNotFound);
  return winner;
}

/** Someone else's configuration is as good as missing to a user. */
async function findManaged(db: Db, caller: Caller, id: number): Promise<Winner> {
  const winner = await getWinner(db, id);
  if (caller.role !== 'admin' && winner.userId !== caller.id) {
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.winnerNotFound);
  }
  return winner;
}

export async function updateWinner(ctx: Context, id: number, input: WinnerInput): Promise<Winner> {
  const { db, caller } = ctx;
  const existing = await findManaged(db, caller, id);
  if (input.userId !== undefined && input.userId !== existing.userId) {
    throw AppError.field('userId', SERVER_MESSAGES.winnerCannotMove);
  }
  return db
    .transaction(async (tx) => {
      await updateWinnerRow(tx, id, valuesOf(input));
      const winner = await getWinner(tx, id);
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'winner.updated',
        targetKind: 'winner',
        targetId: id,
        targetUserId: winner.userId,
        details: { changes: changedFields(auditedFields(existing), auditedFields(winner)) },
      });
      return winner;
    })
    .catch(refusePositionTaken(input.position));
}

export async function deleteWinner(ctx: Context, id: number): Promise<{ message: string }> {
  const { db, caller } = ctx;
  const existing = await findManaged(db, caller, id);
  await db.transaction(async (tx) => {
    if (!(await deleteWinnerRow(tx, id))) throw new AppError('NOT_FOUND', SERVER_MESSAGES.winnerNotFound);
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'winner.deleted',
      targetKind: 'winner',
      targetId: id,
      targetUserId: existing.userId,
      details: auditedFields(existing),
    });
  });
  return { message: SERVER_MESSAGES.winnerDeleted };
}

export async function effectiveWinnersFor(ctx: Context, userId: number): Promise<EffectiveWinners> {
  assertManages(ctx.caller, userId);
  if (ctx.caller.role === 'admin') await assertPlayer(ctx.db, userId);
  return effectiveWinners(ctx.db, userId);
}
