import { useSearchParams } from 'react-router';
import { Printer } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { PeriodPicker } from '../../../components/ui/period-picker.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import type { Period } from '../../../lib/periods.ts';
import { STATEMENT_PAGE_SIZE, statementQueryAt, useStatement } from '../api/get-statement.ts';
import { StatementSheet } from './statement-sheet.tsx';

/** A4 with margins; the shell hides itself in print, the controls of this screen too. */
const PRINT_PAGE = '@page { size: A4; margin: 14mm; }';

/**
 * docs/product/screens.md#statement (/statements/:userId): one account's statement for a period of
 * whole days in the browser's zone: opening balance, every movement with the running balance, the
 * closing balance and the period's money in and out; printable on A4 without the shell. The period
 * and the page are kept in the address (?from=&to=&page=).
 */
export function StatementScreen({ userId, own }: { userId: number; own: boolean }) {
  const [params, setParams] = useSearchParams();
  const query = statementQueryAt(userId, params);
  const period = { from: query.from, to: query.to };
  const page = query.offset / STATEMENT_PAGE_SIZE + 1;
  const statement = useStatement(query);

  const show = (next: Period, nextPage = 1) =>
    setParams({ from: next.from, to: next.to, ...(nextPage > 1 ? { page: String(nextPage) } : {}) }, { replace: true });

  return (
    <div className="space-y-6">
      <style>{PRINT_PAGE}</style>
      <div className="print:hidden">
        <PageHeading title={own ? 'My Statement' : 'Statement'}>
          Every movement of the balance over a period, with the balance after each one.
        </PageHeading>
      </div>

      <div className="flex flex-wrap items-start justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 print:hidden">
        <PeriodPicker value={period} onChange={(next) => show(next)} />
        <div className="flex flex-wrap items-center gap-3">
          <ExportButtons path={`/api/statements/${userId}/export`} query={{ from: period.from, to: period.to }} />
          <Button disabled={!statement.data} onClick={() => window.print()}>
            <Printer className="h-4 w-4" aria-hidden="true" />
            Print
          </Button>
        </div>
      </div>

      {statement.isError && !statement.isFetching ? (
        <ErrorPanel
          message={errorMessage(statement.error, 'Failed to load the statement')}
          onRetry={() => void statement.refetch()}
        />
      ) : statement.data ? (
        <StatementSheet
          statement={statement.data}
          page={page}
          onPage={(next) => show(period, next)}
          fetching={statement.isPlaceholderData}
        />
      ) : (
        <Spinner label="Loading the statement..." />
      )}
    </div>
  );
}
