import { ArrowLeft, Printer, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useShiftReport } from '../api/get-shift-report.ts';
import { PaperChoice } from '../../../components/ui/paper-choice.tsx';
import { ShiftReportView } from './shift-report-view.tsx';
import { useReportPrinter } from './use-report-printer.tsx';

/**
 * docs/product/screens.md#shift-report (/shifts/{id}): one shift's report, for the shop and its
 * upline (the server's scope): the stored Z report of a closed shift, read-only, or the live X report
 * of an open one; printable on this device's slip paper.
 */
export function ShiftReportScreen({
  shiftId,
  backTo,
}: {
  shiftId: number | null;
  backTo: { to: string; label: string };
}) {
  const report = useShiftReport(shiftId);
  const printer = useReportPrinter();
  const back = (
    <Link
      to={backTo.to}
      className="inline-flex items-center gap-1.5 text-sm font-semibold text-indigo-600 hover:text-indigo-700"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      {backTo.label}
    </Link>
  );

  let body;
  if (
    shiftId === null ||
    (report.isError && report.error instanceof ApiError && [400, 404].includes(report.error.status))
  ) {
    body = (
      <Card>
        <div className="flex flex-col items-center gap-3 py-10 text-center">
          <SearchX className="h-10 w-10 text-slate-300" aria-hidden="true" />
          <h2 className="text-xl font-semibold text-slate-900">Shift not found</h2>
          <p className="max-w-sm text-sm text-slate-500">There is no shift you may read at this address.</p>
        </div>
      </Card>
    );
  } else if (report.isError) {
    body = <ErrorPanel message="Failed to fetch the shift's report" onRetry={() => void report.refetch()} />;
  } else if (report.isPending) {
    body = <Spinner label="Loading the shift's report..." />;
  } else {
    const data = report.data;
    body = (
      <>
        <Card>
          <div className="flex flex-wrap items-end justify-between gap-4">
            <PaperChoice width={printer.width} onChange={printer.setWidth} />
            <Button onClick={() => printer.print(data)}>
              <Printer className="h-4 w-4" aria-hidden="true" />
              {data.kind === 'Z' ? 'Print Z report' : 'Print X report'}
            </Button>
          </div>
        </Card>
        <ShiftReportView report={data} />
      </>
    );
  }

  return (
    <div className="space-y-6">
      {back}
      {body}
      {printer.sheet}
    </div>
  );
}
