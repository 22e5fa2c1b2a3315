import type { SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { shifts } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';

/** The shop whose shift it is, and no one else (403). */
function onlyItsShop(caller: Caller, shift: { userId: number }): void {
  if (caller.role !== 'user' || caller.id !== shift.userId) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
}

/**
 * Who may do what with shifts (docs/product/shifts.md): every path of this module asks here first.
 * A shift is read by its shop and the shop's hierarchy as recorded when it opened (admin all), like
 * a game; an id outside that is a 404. Only a shop opens and closes its own shifts and records their
 * cash movements.
 */
export const shiftsAccess = {
  /** The shifts a caller reads (one, a list, an export, the summary). */
  read: (caller: Caller): SQL | undefined => readableByRecord(caller, shifts),

  /** Opening and reading the current shift: a shop's own only. */
  own(caller: Caller): void {
    if (caller.role !== 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  },

  /** Closing: the shop whose shift it is (the shift was found in the caller's reach first). */
  close: onlyItsShop,

  /**
   * Recording a cash movement (decision 091): the shop whose shift it is, as for closing. Its upline
   * takes cash from the drawer only by a take-back "from the drawer" (balance module), which
   * records the pickup with its ledger row.
   */
  recordMovement: onlyItsShop,

  /** The dashboard card is the upline's and the admin's. */
  summary(caller: Caller): void {
    if (caller.role === 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  },
};
