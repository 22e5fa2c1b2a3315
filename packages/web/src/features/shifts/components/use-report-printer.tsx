import { useCallback, useEffect, useState } from 'react';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { useSlipWidth } from '../../../lib/slip-width.ts';
import { ReportPrintSheet, type ReportPrintJob } from './report-print-sheet.tsx';

/**
 * Prints shift reports on this device's slip paper (kept with the slips' choice): `print(report)`
 * renders the report off screen and opens the print dialog; `sheet` is what the screen renders for it.
 */
export function useReportPrinter() {
  const [width, setWidth] = useSlipWidth();
  const [job, setJob] = useState<ReportPrintJob | null>(null);

  // Once the dialog closes, the printed report leaves the page.
  useEffect(() => {
    const done = () => setJob(null);
    window.addEventListener('afterprint', done);
    return () => window.removeEventListener('afterprint', done);
  }, []);

  const print = useCallback(
    (report: ShiftReport) =>
      setJob((previous) => ({ id: (previous?.id ?? 0) + 1, report, width, printedAt: new Date() })),
    [width],
  );

  const sheet = job ? <ReportPrintSheet key={job.id} job={job} /> : null;
  return { width, setWidth, print, sheet };
}
