import { count, eq, isNull } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { positionTaken } from '@lot/domain/messages';
import type { EffectiveWinners, Winner, WinnerInput } from '@lot/domain/schemas/winners';
import type { Db, Tx } from '../../db/client.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { byCaller, changedFields, recordAudit } from '../../lib/audit.ts';
import { winnerConfigs } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners, selectWinners } from './winners.repository.ts';

/** Admin list: everything, or one user's, or the global ones. */
export async function listWinners(
  db: Db,
  filter: { userId?: number | 'global'; limit: number; offset: number },
): Promise<{ items: Winner[]; total: number }> {
  const where =
    filter.userId === 'global'
      ? isNull(winnerConfigs.userId)
      : filter.userId !== undefined
        ? eq(winnerConfigs.userId, filter.userId)
        : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(winnerConfigs).where(where);
  return { items: await selectWinners(db, where, filter), total };
}

/** Admins manage anyone's and the global ones; a user only their own. */
function assertManages(caller: Caller, userId: number | null): void {
  if (caller.role === 'admin') return;
  if (caller.role !== 'user' || userId !== caller.id) {
    throw new AppError('FORBIDDEN', 'You can only manage your own winner settings');
  }
}

/** The player a configuration belongs to must be a live user of role user. */
async function assertPlayer(db: Db, userId: number): Promise<void> {
  const target = await findLiveUserById(db, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found', { fieldErrors: { userId: 'User not found' } });
  if (target.role !== 'user') throw AppError.field('userId', 'Winner settings belong to a user');
}

export async function listUserWinners(db: Db, caller: Caller, userId: number): Promise<Winner[]> {
  assertManages(caller, userId);
  return selectWinners(db, eq(winnerConfigs.userId, userId));
}

export async function createWinner(db: Db, caller: Caller, input: WinnerInput): Promise<Winner> {
  // A user's form has no user field: their own. An admin's empty user means global.
  const userId = input.userId ?? (caller.role === 'user' ? caller.id : null);
  assertManages(caller, userId);
  if (userId !== null) await assertPlayer(db, userId);
  return db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(winnerConfigs)
        .values({
          userId,
          name: input.name,
          percentBps: input.percent,
          position: input.position,
          description: input.description ?? null,
          isActive: input.isActive,
        })
        .returning({ id: winnerConfigs.id });
      if (!row) throw new Error('insert returned no row');
      const winner = await getWinner(tx, row.id);
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
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
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

async function getWinner(db: Db | Tx, id: number): Promise<Winner> {
  const [winner] = await selectWinners(db, eq(winnerConfigs.id, id));
  if (!winner) throw new AppError('NOT_FOUND', 'Winner configuration not found');
  return winner;
}

/** Someone else's configuration is as good as missing to a user. */
async function findManaged(db: Db, caller: Caller, id: number): Promise<Winner> {
  const winner = await getWinner(db, id);
  if (caller.role !== 'admin' && winner.userId !== caller.id) {
    throw new AppError('NOT_FOUND', 'Winner configuration not found');
  }
  return winner;
}

export async function updateWinner(db: Db, caller: Caller, id: number, input: WinnerInput): Promise<Winner> {
  const existing = await findManaged(db, caller, id);
  if (input.userId !== undefined && input.userId !== existing.userId) {
    throw AppError.field('userId', 'A winner configuration cannot move to another user');
  }
  return db
    .transaction(async (tx) => {
      await tx
        .update(winnerConfigs)
        .set({
          name: input.name,
          percentBps: input.percent,
          position: input.position,
          description: input.description ?? null,
          isActive: input.isActive,
        })
        .where(eq(winnerConfigs.id, id));
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

export async function deleteWinner(db: Db, caller: Caller, id: number): Promise<{ message: string }> {
  const existing = await findManaged(db, caller, id);
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(winnerConfigs).where(eq(winnerConfigs.id, id)).returning({ id: winnerConfigs.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Winner configuration not found');
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'winner.deleted',
      targetKind: 'winner',
      targetId: id,
      targetUserId: existing.userId,
      details: auditedFields(existing),
    });
  });
  return { message: 'Winner configuration deleted successfully' };
}

export async function effectiveWinnersFor(db: Db, caller: Caller, userId: number): Promise<EffectiveWinners> {
  assertManages(caller, userId);
  if (caller.role === 'admin') await assertPlayer(db, userId);
  return effectiveWinners(db, userId);
}
