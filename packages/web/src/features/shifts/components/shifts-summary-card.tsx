import { Link } from 'react-router';
import { Clock } from 'lucide-react';
import { Card } from '../../../components/ui/panels.tsx';
import { count } from '../../../lib/format.ts';
import { useShiftSummary } from '../api/get-shifts-summary.ts';
import { Variance } from './variance.tsx';

/**
 * The dashboards' Shifts card (admin, super agent, agent; docs/product/screens.md#shifts-card): the
 * shifts of their shops open now and open over midnight, and today's (UTC) closes, the short ones and
 * the summed variance, with the way to the list.
 */
export function ShiftSummaryCard({ listPath }: { listPath: string }) {
  const summary = useShiftSummary();
  const figures = summary.data
    ? [
        { label: 'Open shifts', testId: 'shifts-open', value: count(summary.data.open) },
        {
          label: 'Open over midnight',
          testId: 'shifts-over-midnight',
          value: (
            <span className={summary.data.openOverMidnight > 0 ? 'text-amber-700' : undefined}>
              {count(summary.data.openOverMidnight)}
            </span>
          ),
        },
        { label: 'Closed today', testId: 'shifts-closed-today', value: count(summary.data.closedToday) },
        {
          label: 'Short today',
          testId: 'shifts-short-today',
          value: (
            <span className={summary.data.shortToday > 0 ? 'text-rose-700' : undefined}>
              {count(summary.data.shortToday)}
            </span>
          ),
        },
        {
          label: 'Variance today',
          testId: 'shifts-variance-today',
          // No close today: nothing to compare, rather than an "Exact" nobody counted.
          value:
            summary.data.closedToday === 0 ? (
              <span className="text-slate-500">—</span>
            ) : (
              <Variance amount={summary.data.varianceToday} />
            ),
        },
      ]
    : [];

  return (
    <Card
      title={
        <span className="inline-flex items-center gap-2">
          <Clock className="h-5 w-5 text-indigo-500" aria-hidden="true" />
          Shifts
        </span>
      }
      actions={
        <Link to={listPath} className="text-sm font-semibold text-indigo-600 hover:text-indigo-700">
          View shifts
        </Link>
      }
    >
      <div data-testid="shifts-summary">
        {summary.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            Couldn&apos;t load the shifts: {summary.error.message || 'Failed to fetch the shifts'}
          </p>
        ) : !summary.data ? (
          <p className="text-sm text-slate-500">…</p>
        ) : (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
            {figures.map((figure) => (
              <div key={figure.testId} className="rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                <dt className="text-xs font-medium text-slate-600">{figure.label}</dt>
                <dd data-testid={figure.testId} className="text-xl font-bold text-slate-900 tabular-nums">
                  {figure.value}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <p className="mt-3 text-xs text-slate-500">
          Today is the UTC day. Variance: counted − expected cash of today’s closes.
        </p>
      </div>
    </Card>
  );
}
