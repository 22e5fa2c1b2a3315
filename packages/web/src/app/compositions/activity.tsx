import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { decimalToCents } from '@lot/domain/money';
import type { Activity } from '@lot/domain/schemas/reports';
import { Card } from '../../components/ui/panels.tsx';
import { count, money } from '../../lib/format.ts';
import { DASHBOARD_DAYS, dashboardActivityQuery } from '../../features/reports/api/get-activity.ts';
import { ActivityChart } from '../../features/reports/components/activity-chart.tsx';

/** The dashboard's activity: one call for its chart and its changes, in the browser's zone. */
export function useDashboardActivity() {
  return useQuery(dashboardActivityQuery());
}

type Change = Activity['newAccounts']['user'];

const signed = (value: number) => (value > 0 ? `+${count(value)}` : 'none');

/** 'New in the last 30 days' beside the 30 days before, for a count of people. */
export function newAccountsHint(change: Change | undefined): ReactNode {
  if (!change) return undefined;
  return (
    <span data-testid="change">
      <span className={change.current > 0 ? 'font-semibold text-emerald-700' : 'font-semibold text-slate-700'}>
        {change.current > 0 ? signed(change.current) : 'No one new'}
      </span>{' '}
      in the last {DASHBOARD_DAYS} days · {signed(change.previous)} the {DASHBOARD_DAYS} before
    </span>
  );
}

/** How the top-ups of the last 30 days compare with the 30 before, honestly when there is nothing to compare. */
export function topUpsChange(topUps: Activity['topUps']): string {
  const current = decimalToCents(topUps.current);
  const previous = decimalToCents(topUps.previous);
  if (previous === 0)
    return current === 0 ? 'None the 30 days before either.' : 'None the 30 days before: no change to show.';
  const percent = Math.round(((current - previous) * 100) / previous);
  const sign = percent > 0 ? '+' : percent < 0 ? '−' : '±';
  return `${sign}${Math.abs(percent)}% vs the 30 days before (${money(topUps.previous)}).`;
}

/** A dashboard's Activity card: the chart of the last 30 days, scoped as the caller's sales history. */
export function ActivityCard({
  activity,
  scope,
}: {
  activity: ReturnType<typeof useDashboardActivity>;
  scope: string;
}) {
  return (
    <Card
      title={
        <>
          Activity{' '}
          <span className="font-normal text-slate-500">
            · {scope}, last {DASHBOARD_DAYS} days
          </span>
        </>
      }
    >
      <ActivityChart activity={activity} periodLabel={`the last ${DASHBOARD_DAYS} days`} />
    </Card>
  );
}
