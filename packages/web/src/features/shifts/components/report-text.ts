import { decimalToCents, formatMoney } from '@lot/domain/money';
import { movementSign, SHIFT_MOVEMENT_LABELS, type ShiftMovement, type ShiftReport } from '@lot/domain/schemas/shifts';
import { count } from '../../../lib/format.ts';

/** What the report on screen and the printed report both say in the same words. */

/** A report's title: "X report" while the shift is open, "Z report no. 7" once closed. */
export const reportTitle = (report: ShiftReport) =>
  report.kind === 'Z' ? `Z report no. ${report.shift.zNumber ?? '—'}` : 'X report';

/** A game of the report's state, as a word. */
export const GAME_STATUS: Record<ShiftReport['games'][number]['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

/** "1 entry", "1,204 entries". */
export const entriesText = (entries: number) => `${count(entries)} ${entries === 1 ? 'entry' : 'entries'}`;

/** The net of a report's cash movements in cents (paid in less pickups, drops and paid out), or null before movements existed. */
export function movementsNet(report: ShiftReport): number | null {
  if (!report.movements) return null;
  return report.movements.reduce((sum, m) => sum + movementSign(m.kind) * decimalToCents(m.amount), 0);
}

/** "+$20.50", "−$162.25": a signed sum as the cash sum shows it. */
export const signedMoney = (cents: number) => `${cents < 0 ? '−' : '+'}${formatMoney(Math.abs(cents))}`;

/** A movement's kind as a word, and the amount with the way it moved the cash ("−$50.00"). */
export const movementTitle = (movement: ShiftMovement) => SHIFT_MOVEMENT_LABELS[movement.kind];
export const movementAmount = (movement: ShiftMovement) =>
  signedMoney(movementSign(movement.kind) * decimalToCents(movement.amount));

/** Who took the cash (a pickup or a drop) and why. */
export const movementDetail = (movement: ShiftMovement) =>
  movement.takenBy ? `${movement.takenBy} · ${movement.reason}` : movement.reason;

/** A take-back's reason, and whether its cash came from the drawer (then counted as its pickup). */
export const takeBackDetail = (takeBack: ShiftReport['takeBacks'][number]) =>
  [takeBack.reason, takeBack.fromDrawer ? 'from the drawer (counted as its pickup)' : null]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
