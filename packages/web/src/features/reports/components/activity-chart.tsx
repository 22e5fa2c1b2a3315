import { lazy, Suspense, useId, useState } from 'react';
import type { Activity, ActivityDay } from '@lot/domain/schemas/reports';
import { decimalToCents } from '@lot/domain/money';
import { EmptyState, ErrorPanel } from '../../../components/ui/panels.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { count, money } from '../../../lib/format.ts';
import { formatDay } from '../../../lib/periods.ts';
import type { useActivity } from '../api/get-activity.ts';
import { CHART_COLOURS, type MoneyLine } from './activity-plot-options.ts';

// The charting library (uPlot, decision 021) comes with the chart, after the screen's first paint.
const ActivityPlot = lazy(() => import('./activity-plot.tsx').then((module) => ({ default: module.ActivityPlot })));

const LINE_LABELS: Record<MoneyLine, string> = { pool: 'Pool', commission: 'Commission' };

/** `Nov 23`: a day of the chart, short. */
export function shortDay(day: string): string {
  return formatDay(day).replace(/, \d{4}$/, '');
}

/** The sentence a screen reader hears for the drawing, and the text the table summarises. */
export function describeActivity(activity: Activity, line: MoneyLine): string {
  const busiest = activity.days.reduce<ActivityDay | undefined>(
    (best, day) => (best === undefined || day.games > best.games ? day : best),
    undefined,
  );
  const span = `from ${formatDay(activity.firstDay)} to ${formatDay(activity.lastDay)}`;
  const peak =
    busiest && busiest.games > 0
      ? `; the busiest day was ${formatDay(busiest.date)} with ${count(busiest.games)} games`
      : '';
  return `Bar chart of games per day ${span}, with a line of the ${LINE_LABELS[line].toLowerCase()} per day: ${count(activity.totals.games)} games in all${peak}.`;
}

/**
 * The activity chart (docs/product/screens.md#activity-chart): games per local day as bars, the pool
 * or the commission as a line (a toggle), a visible summary and legend, and every figure in a table
 * a screen reader (and anyone who opens it) can read. A skeleton while it loads, 'No games in this
 * period' when there were none, the error with a way to try again.
 */
export function ActivityChart({
  activity: query,
  periodLabel,
}: {
  activity: ReturnType<typeof useActivity>;
  /** 'the last 30 days', or the period written out. */
  periodLabel: string;
}) {
  const [line, setLine] = useState<MoneyLine>('pool');
  const tableId = useId();
  const data = query.data;

  if (query.isError && !query.isFetching) {
    return (
      <ErrorPanel
        message={errorMessage(query.error, 'Failed to load the activity')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!data) return <ChartSkeleton />;
  if (data.totals.games === 0) {
    return (
      <div data-testid="activity-chart" data-state="empty">
        <EmptyState message="No games in this period" />
      </div>
    );
  }

  return (
    <div
      data-testid="activity-chart"
      data-state="ready"
      className={`space-y-3 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
    >
      <p data-testid="activity-summary" className="text-sm text-slate-700">
        <span className="font-semibold text-slate-900">{count(data.totals.games)} games</span> in {periodLabel}: pool{' '}
        <span className="font-semibold text-slate-900">{money(data.totals.pool)}</span>, commission{' '}
        <span className="font-semibold text-slate-900">{money(data.totals.commission)}</span>.
      </p>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
          <li className="flex items-center gap-1.5">
            <span className="h-3 w-3 rounded-sm" style={{ background: CHART_COLOURS.games }} aria-hidden="true" />
            Games per day (bars, left scale)
          </li>
          <li className="flex items-center gap-1.5">
            <span className="h-0.5 w-4" style={{ background: CHART_COLOURS[line] }} aria-hidden="true" />
            {LINE_LABELS[line]} per day (line, right scale)
          </li>
        </ul>
        <div role="group" aria-label="Line" className="inline-flex rounded-lg ring-1 ring-slate-300 ring-inset">
          {(['pool', 'commission'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={line === option}
              onClick={() => setLine(option)}
              className={`px-3 py-1 text-xs font-semibold first:rounded-l-lg last:rounded-r-lg focus-visible:outline-2 focus-visible:outline-indigo-600 ${line === option ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              {LINE_LABELS[option]}
            </button>
          ))}
        </div>
      </div>

      <figure className="m-0" aria-describedby={tableId}>
        <Suspense fallback={<ChartSkeleton bare />}>
          <ActivityPlot days={data.days} line={line} label={describeActivity(data, line)} />
        </Suspense>
      </figure>

      <details className="text-sm">
        <summary className="cursor-pointer font-semibold text-indigo-700 hover:underline">
          Show the figures per day
        </summary>
        <div className="mt-2 max-h-72 overflow-auto rounded-lg ring-1 ring-slate-200">
          <table id={tableId} data-testid="activity-table" className="w-full text-right tabular-nums">
            <caption className="sr-only">Games, pool, prizes and commission per day, {periodLabel}</caption>
            <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-left">
                  Day
                </th>
                <th scope="col" className="px-3 py-2">
                  Games
                </th>
                <th scope="col" className="px-3 py-2">
                  Pool
                </th>
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                  Prizes
                </th>
                <th scope="col" className="px-3 py-2">
                  Commission
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700">
              {data.days.map((day) => (
                <tr
                  key={day.date}
                  data-testid="activity-day"
                  data-date={day.date}
                  data-games={day.games}
                  data-pool-cents={decimalToCents(day.pool)}
                  data-commission-cents={decimalToCents(day.commission)}
                >
                  <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                    {shortDay(day.date)}
                  </th>
                  <td className="px-3 py-1.5">{count(day.games)}</td>
                  <td className="px-3 py-1.5">{money(day.pool)}</td>
                  <td className="hidden px-3 py-1.5 sm:table-cell">{money(day.prizes)}</td>
                  <td className="px-3 py-1.5">{money(day.commission)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

/** The chart's shape in grey while the figures (or the drawing library) load. */
function ChartSkeleton({ bare = false }: { bare?: boolean }) {
  const heights = [40, 65, 30, 80, 55, 70, 45, 90, 60, 35, 75, 50];
  return (
    <div role="status" data-testid="activity-loading" className="animate-pulse space-y-3">
      <span className="sr-only">Loading the activity...</span>
      {!bare && <div className="h-4 w-2/3 rounded bg-slate-200" />}
      <div className="flex h-60 items-end gap-1.5 rounded-lg border-b border-l border-slate-200 px-2 pt-4">
        {heights.map((height, index) => (
          <div key={index} className="flex-1 rounded-t bg-slate-200" style={{ height: `${height}%` }} />
        ))}
      </div>
    </div>
  );
}
