import { DollarSign, UserCheck, Users, UsersRound } from 'lucide-react';
import { ActivityCard, newAccountsHint, topUpsChange, useDashboardActivity } from '../compositions/activity.tsx';
import { useFlaggedGamesStat } from '../compositions/dashboard.tsx';
import { queryStat, StatGrid } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count, money } from '../../lib/format.ts';
import { useRoleCount } from '../../features/admin-dashboard/api/get-role-count.ts';
import { RecentTransactionsCard } from '../../features/transactions/components/recent-transactions-card.tsx';
import { ShiftSummaryCard } from '../../features/shifts/components/shifts-summary-card.tsx';

/**
 * docs/product/screens.md#admin-dashboard: four cards with their real changes over the last 30
 * days, the voided or server-randomness games (with the way to LOT-DRAW-1 games per shop, on the
 * profile's Public randomness card), the shifts, the activity chart and the 5 latest transactions.
 */
export function AdminDashboardRoute() {
  const me = useCurrentUser();
  const users = useRoleCount('user');
  const superagents = useRoleCount('superagent');
  const agents = useRoleCount('agent');
  const activity = useDashboardActivity();
  const voided = useFlaggedGamesStat('/admin/sales-history', activity, '/profile#randomness');
  const created = activity.data?.newAccounts;

  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">Welcome back, {me.fullName}</h2>
        <p className="mt-1 text-sm text-slate-500">An overview of the people and the money in the system.</p>
      </div>

      <StatGrid
        stats={[
          {
            testId: 'stat-users',
            label: 'Total Users',
            ...queryStat(users, 'Failed to fetch users', count),
            hint: newAccountsHint(created?.user),
            icon: Users,
          },
          {
            testId: 'stat-superagents',
            label: 'Super Agents',
            ...queryStat(superagents, 'Failed to fetch users', count),
            hint: newAccountsHint(created?.superagent),
            icon: UserCheck,
          },
          {
            testId: 'stat-agents',
            label: 'Agents',
            ...queryStat(agents, 'Failed to fetch users', count),
            hint: newAccountsHint(created?.agent),
            icon: UsersRound,
          },
          {
            testId: 'stat-volume',
            label: 'Transaction Volume',
            ...queryStat(activity, 'Failed to fetch the activity', (data) => money(data.topUps.current)),
            hint: activity.data && (
              <span data-testid="change">
                Top-ups in the last 30 days: money that entered the system, counted once.{' '}
                {topUpsChange(activity.data.topUps)}
              </span>
            ),
            icon: DollarSign,
          },
          voided,
        ]}
      />

      <ShiftSummaryCard listPath="/admin/shifts" />

      <ActivityCard activity={activity} scope="everyone's games" />

      <RecentTransactionsCard viewAllTo="/admin/transactions" />
    </div>
  );
}
