import type { ShiftReport } from '@lot/domain/schemas/shifts';
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
