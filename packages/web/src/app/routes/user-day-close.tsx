import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, Printer } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel, PageHeading, Spinner } from '../../components/ui/panels.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { dayCloseQueryAt, useDayClose } from '../../features/day-close/api/get-day-close.ts';
import { DayCloseSheet } from '../../features/day-close/components/day-close-sheet.tsx';
import { isDay, localDay, shiftDay } from '../../lib/periods.ts';

/** A4 with margins; the shell hides itself in print, the controls of this screen too. */
const PRINT_PAGE = '@page { size: A4; margin: 14mm; }';

/** The moment the sheet is printed: set again just before the browser lays the page out for print. */
function usePrintedAt(): Date {
  const [printedAt, setPrintedAt] = useState(() => new Date());
  useEffect(() => {
    const now = () => flushSync(() => setPrintedAt(new Date()));
    const print = window.matchMedia('print');
    const onMedia = (event: MediaQueryListEvent) => {
      if (event.matches) now();
    };
    window.addEventListener('beforeprint', now);
    print.addEventListener('change', onMedia);
    return () => {
      window.removeEventListener('beforeprint', now);
      print.removeEventListener('change', onMedia);
    };
  }, []);
  return printedAt;
}

/** The server's refusal of the asked day (not a day, or after today): asking again will not help. */
function isRefusedDay(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && error.fieldErrors?.date !== undefined;
}

/**
 * docs/product/screens.md#day-close (/user/day-close): the shop's own balance statement (the day close
 * of its LOT balance, not of its cash: that is the shift's) for a local day of
 * the browser's time zone (today by default, never after today), previous and next day, printable
 * on A4 without the shell. The day is kept in the address (?date=YYYY-MM-DD); one there that is not
 * a day or is after today shows the server's refusal and a way back to today, never another day.
 */
export function UserDayCloseRoute() {
  const [params, setParams] = useSearchParams();
  const today = localDay();
  const query = dayCloseQueryAt(params);
  const { date } = query;
  // The address's day is one the sheet can show; else the server refuses it and the screen says so.
  const showable = isDay(date) && date <= today;
  // What the picker holds when it is not a day to show (cleared, or after today); else the day.
  const [rejected, setRejected] = useState<string | null>(null);
  const draft = rejected ?? (isDay(date) ? date : '');
  const report = useDayClose(query);
  const printedAt = usePrintedAt();

  const show = (day: string) => {
    setRejected(null);
    setParams(day === today ? {} : { date: day }, { replace: true });
  };
  // A later day typed into the picker; one from the address is the server's refusal below, said once.
  const future = rejected !== null && isDay(rejected) && rejected > today;

  return (
    <div className="space-y-6">
      <style>{PRINT_PAGE}</style>
      <div className="print:hidden">
        <PageHeading title="Balance Statement">
          Your LOT balance with your upline for a day: its games, every movement of the balance, and the opening and
          closing balance. It is not the cash in your drawer: count that against your{' '}
          <Link to="/user/shift" className="font-semibold text-indigo-700 underline underline-offset-2">
            shift
          </Link>
          .
        </PageHeading>
      </div>

      <div className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 print:hidden">
        <div>
          <label htmlFor="day-close-date" className="block text-sm font-medium text-slate-700">
            Day
          </label>
          <input
            id="day-close-date"
            type="date"
            value={draft}
            max={today}
            aria-invalid={future}
            aria-describedby={future ? 'day-close-date-error' : undefined}
            onChange={(event) => {
              const value = event.target.value;
              if (isDay(value) && value <= today) show(value);
              else setRejected(value);
            }}
            className="mt-1 block rounded-lg border-0 px-3 py-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
          />
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" disabled={!showable} onClick={() => show(shiftDay(date, -1))}>
            <ChevronLeft className="h-4 w-4" aria-hidden="true" />
            Previous day
          </Button>
          <Button variant="secondary" disabled={!showable || date >= today} onClick={() => show(shiftDay(date, 1))}>
            Next day
            <ChevronRight className="h-4 w-4" aria-hidden="true" />
          </Button>
        </div>
        <Button className="sm:ml-auto" disabled={!report.data} onClick={() => window.print()}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          Print
        </Button>
        {future && (
          <p id="day-close-date-error" role="alert" className="w-full text-sm text-rose-600">
            Choose today or an earlier day.
          </p>
        )}
      </div>

      {report.isError && !report.isFetching ? (
        isRefusedDay(report.error) ? (
          <ErrorPanel message={`No balance statement for “${date}”: ${report.error.message}.`}>
            <Button variant="secondary" onClick={() => show(today)}>
              Show today
            </Button>
          </ErrorPanel>
        ) : (
          <ErrorPanel
            message={errorMessage(report.error, 'Failed to load the balance statement')}
            onRetry={() => void report.refetch()}
          />
        )
      ) : report.data ? (
        <DayCloseSheet report={report.data} isToday={date === today} printedAt={printedAt} />
      ) : (
        <Spinner label="Loading the balance statement..." />
      )}
    </div>
  );
}
