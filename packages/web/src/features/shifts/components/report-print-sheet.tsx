import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { PrintSheet } from '../../../components/ui/print-sheet.tsx';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import { ReportSlip } from './report-slip.tsx';

/** A print under way: the report, the paper, the moment. */
export type ReportPrintJob = { id: number; report: ShiftReport; width: SlipWidth; printedAt: Date };

/** The report being printed, on a print sheet (as the game's slips print, docs/product/game.md#slips). */
export function ReportPrintSheet({ job }: { job: ReportPrintJob }) {
  return (
    <PrintSheet job={job} width={job.width} a4Margin="15mm" className="report-print-sheet" testId="report-print-sheet">
      <ReportSlip report={job.report} width={job.width} printedAt={job.printedAt} />
    </PrintSheet>
  );
}
