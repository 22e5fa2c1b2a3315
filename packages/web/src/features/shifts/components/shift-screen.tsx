import { useState } from 'react';
import { ArrowLeftRight, CheckCircle2, Lock, Printer, RefreshCw } from 'lucide-react';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, EmptyState, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { dateTime } from '../../../lib/format.ts';
import { useCurrentShift } from '../api/get-current-shift.ts';
import { NO_SHIFTS_FILTER, SHIFTS_PAGE_SIZE, useShifts } from '../api/get-shifts.ts';
import { CloseShiftDialog } from './close-shift-dialog.tsx';
import { MovementDialog } from './movement-dialog.tsx';
import { OpenShiftForm } from './open-shift-form.tsx';
import { PaperChoice } from '../../../components/ui/paper-choice.tsx';
import { reportTitle } from './report-text.ts';
import { ShiftReportView } from './shift-report-view.tsx';
import { ShiftsTable } from './shifts-table.tsx';
import { useReportPrinter } from './use-report-printer.tsx';

const CLOSED_FILTER = { ...NO_SHIFTS_FILTER, status: 'closed' as const };

/** The shop's closed shifts, newest first, each with the way to its Z report (read-only, printable again). */
function PastShifts() {
  const [page, setPage] = useState(1);
  const shifts = useShifts(CLOSED_FILTER, page);
  return (
    <Card title="Past shifts">
      {shifts.isPending ? (
        <Spinner label="Loading past shifts..." />
      ) : shifts.isError ? (
        <ErrorPanel message="Failed to fetch the shifts" onRetry={() => void shifts.refetch()} />
      ) : shifts.data.total === 0 ? (
        <EmptyState message="No closed shifts yet." />
      ) : (
        <div className="space-y-4">
          <ShiftsTable shifts={shifts.data.items} hide={['shop']} />
          <Pagination page={page} pageSize={SHIFTS_PAGE_SIZE} total={shifts.data.total} onPage={setPage} />
        </div>
      )}
    </Card>
  );
}

/**
 * docs/product/screens.md#shift (/user/shift): the shop's cash shift. None open: Open shift with its
 * float. Open: the live X report (asked again every 15 s), Print X report, Cash movement (a pickup,
 * drop, paid in or paid out) and Close shift. Closed
 * just now: its Z report, printed at once on this device's paper and printable again. Below, the
 * past shifts.
 */
export function ShiftScreen() {
  const current = useCurrentShift();
  const toast = useToast();
  const printer = useReportPrinter();
  const [closing, setClosing] = useState(false);
  const [moving, setMoving] = useState(false);
  const [closed, setClosed] = useState<ShiftReport | null>(null);

  const onClosed = (report: ShiftReport) => {
    setClosing(false);
    setClosed(report);
    toast.success(`Shift closed: ${reportTitle(report)}`);
    printer.print(report);
  };

  const paper = (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <PaperChoice width={printer.width} onChange={printer.setWidth} />
      <p className="text-xs text-slate-500">The slips’ paper, remembered on this device.</p>
    </div>
  );

  let main;
  if (closed) {
    main = (
      <div className="space-y-4" data-testid="z-report-done">
        <Card>
          <div className="flex flex-col gap-4">
            <p className="flex items-center gap-2 text-sm font-semibold text-emerald-700">
              <CheckCircle2 className="h-5 w-5" aria-hidden="true" />
              Shift closed at {dateTime(closed.shift.closedAt ?? closed.generatedAt)}. Its {reportTitle(closed)} is kept
              as it is.
            </p>
            {paper}
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => printer.print(closed)}>
                <Printer className="h-4 w-4" aria-hidden="true" />
                Print Z report
              </Button>
              <Button variant="secondary" onClick={() => setClosed(null)}>
                Done
              </Button>
            </div>
          </div>
        </Card>
        <ShiftReportView report={closed} />
      </div>
    );
  } else if (current.isPending) {
    main = <Spinner label="Loading the shift..." />;
  } else if (current.isError) {
    main = <ErrorPanel message="Failed to fetch the shift" onRetry={() => void current.refetch()} />;
  } else if (!current.data.shift || !current.data.report) {
    main = <OpenShiftForm />;
  } else {
    const { shift, report } = current.data;
    main = (
      <div className="space-y-4">
        <Card>
          <div className="flex flex-col gap-4">
            {paper}
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => printer.print(report)}>
                <Printer className="h-4 w-4" aria-hidden="true" />
                Print X report
              </Button>
              <Button variant="secondary" disabled={current.isFetching} onClick={() => void current.refetch()}>
                <RefreshCw className={`h-4 w-4 ${current.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
                Refresh
              </Button>
              <Button variant="secondary" onClick={() => setMoving(true)}>
                <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
                Cash movement
              </Button>
              <Button variant="danger" onClick={() => setClosing(true)}>
                <Lock className="h-4 w-4" aria-hidden="true" />
                Close shift
              </Button>
            </div>
          </div>
        </Card>
        <ShiftReportView report={report} />
        <MovementDialog shiftId={shift.id} open={moving} onClose={() => setMoving(false)} />
        <CloseShiftDialog
          open={closing}
          shift={shift}
          expectedCash={report.expectedCash}
          onClose={() => setClosing(false)}
          onClosed={onClosed}
        />
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <PageHeading title="Shift">
        The cash in your drawer from opening to closing: what it should hold now, and the Z report when you close.
      </PageHeading>
      {main}
      <PastShifts />
      {printer.sheet}
    </div>
  );
}
