import { useSearchParams } from 'react-router';
import { ChevronRight } from 'lucide-react';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { Card, EmptyState, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { PeriodPicker } from '../../../components/ui/period-picker.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatPeriod, type Period } from '../../../lib/periods.ts';
import { useActivity } from '../api/get-activity.ts';
import { downlineQueryAt, trailAt, useDownline } from '../api/get-downline.ts';
import { ActivityChart } from './activity-chart.tsx';
import { downlineColumns, type DownlineLine } from './downline-columns.tsx';

/**
 * docs/product/screens.md#downline-report (/admin/reports, /superagent/reports, /agent/reports):
 * one line per direct child with its whole subtree summed in, and the totals, for a period of whole
 * days in the browser's zone. A super agent's or agent's line opens its own children (?parent=),
 * with a trail back; every line opens that account's statement. The period is in the address.
 */
export function DownlineScreen() {
  const [params, setParams] = useSearchParams();
  const query = downlineQueryAt(params);
  const { timeZone } = query;
  const period = { from: query.from, to: query.to };
  const trail = trailAt(params);
  const report = useDownline(query);
  const activity = useActivity({ from: period.from, to: period.to, timeZone });

  const show = (next: Period, nextTrail: number[]) =>
    setParams({ from: next.from, to: next.to, ...(nextTrail.length > 0 ? { trail: nextTrail.join(',') } : {}) });

  const columns = downlineColumns(period, (userId) => show(period, [...trail, userId]));

  const data = report.data;
  const lines: DownlineLine[] = data
    ? [...data.rows.map((row): DownlineLine => ({ kind: 'child', row })), { kind: 'totals', figures: data.totals }]
    : [];

  return (
    <div className="space-y-6">
      <PageHeading title="Reports">
        What the people below you did over a period: each line sums everyone under that person.
      </PageHeading>

      <div className="space-y-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <PeriodPicker value={period} onChange={(next) => show(next, trail)} />
        <ExportButtons
          path="/api/reports/downline/export"
          query={{ from: period.from, to: period.to, parentId: query.parentId }}
        />
      </div>

      <Card
        title={
          <>
            Activity <span className="font-normal text-slate-500">· everyone below you, {formatPeriod(period)}</span>
          </>
        }
      >
        <ActivityChart activity={activity} periodLabel={formatPeriod(period)} />
      </Card>

      <section className="space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <nav aria-label="Breadcrumb" data-testid="report-breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm">
            <li>
              {trail.length === 0 ? (
                <span aria-current="page" className="font-semibold text-slate-900">
                  My downline
                </span>
              ) : (
                <button type="button" className="text-indigo-700 hover:underline" onClick={() => show(period, [])}>
                  My downline
                </button>
              )}
            </li>
            {trail.map((id, index) => (
              <li key={id} className="flex items-center gap-1">
                <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden="true" />
                <Crumb
                  id={id}
                  period={period}
                  timeZone={timeZone}
                  current={index === trail.length - 1}
                  onOpen={() => show(period, trail.slice(0, index + 1))}
                />
              </li>
            ))}
          </ol>
        </nav>

        {report.isError && !report.isFetching ? (
          <ErrorPanel
            message={errorMessage(report.error, 'Failed to load the report')}
            onRetry={() => void report.refetch()}
          />
        ) : !data ? (
          <Spinner label="Loading the report..." />
        ) : data.rows.length === 0 ? (
          <EmptyState message="Nobody below this account yet." />
        ) : (
          <div className={report.isPlaceholderData ? 'opacity-60' : undefined}>
            <DataTable
              rows={lines}
              columns={columns}
              rowKey={(line) => (line.kind === 'child' ? line.row.user.id : 'totals')}
              rowTestId="report-row"
              rowData={(line): Record<`data-${string}`, string> =>
                line.kind === 'child'
                  ? { 'data-user-id': String(line.row.user.id), 'data-username': line.row.user.username }
                  : { 'data-totals': 'true' }
              }
              rowClassName={(line) =>
                `grid grid-cols-2 gap-x-4 gap-y-1 ${line.kind === 'totals' ? 'bg-slate-50 md:border-t-2 md:border-slate-300' : 'bg-white md:hover:bg-slate-50'}`
              }
              minWidth="md:min-w-[860px]"
              cellClassName="md:px-2 md:py-2.5"
              headerClassName="px-2 py-2.5"
            />
          </div>
        )}
      </section>
    </div>
  );
}

/** A step of the trail: the name of the account whose children it shows (from that level's report). */
function Crumb({
  id,
  period,
  timeZone,
  current,
  onOpen,
}: {
  id: number;
  period: Period;
  timeZone: string;
  current: boolean;
  onOpen: () => void;
}) {
  const level = useDownline({ parentId: id, from: period.from, to: period.to, timeZone });
  const name = level.data?.parent.fullName ?? '…';
  return current ? (
    <span aria-current="page" data-testid="crumb-current" className="font-semibold text-slate-900">
      {name}
    </span>
  ) : (
    <button type="button" className="text-indigo-700 hover:underline" onClick={onOpen}>
      {name}
    </button>
  );
}
