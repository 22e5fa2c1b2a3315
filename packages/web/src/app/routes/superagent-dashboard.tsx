import { ArrowLeftRight, UserCircle, UserCheck, Users, UsersRound } from 'lucide-react';
import type { LinkItem } from '../../components/ui/link-list.tsx';
import { PageHeading, queryStat, StatGrid } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count } from '../../lib/format.ts';
import { useScopedUsers } from '../../features/users/api/get-scoped-users.ts';
import { ActivityCard, newAccountsHint, useDashboardActivity } from '../compositions/activity.tsx';
import { RecentTransactionsAndLinks, useBalanceStat, useFlaggedGamesStat } from '../compositions/dashboard.tsx';
import { ShiftSummaryCard } from '../../features/shifts/components/shifts-summary-card.tsx';

const QUICK_LINKS: LinkItem[] = [
  { to: '/superagent/agents', label: 'Manage Agents', icon: UsersRound },
  { to: '/superagent/users', label: 'Manage Users', icon: Users },
  { to: '/transactions', label: 'View Transactions', icon: ArrowLeftRight },
  { to: '/profile', label: 'Go to Profile', icon: UserCircle },
];

/** docs/product/screens.md#superagent-dashboard: My Balance, Agents, Direct Users, Total Users; the 5 latest transactions; quick links. */
export function SuperagentDashboardRoute() {
  const me = useCurrentUser();
  const balance = useBalanceStat();
  const agents = useScopedUsers('agent');
  const users = useScopedUsers('user');
  const activity = useDashboardActivity();
  const voided = useFlaggedGamesStat('/superagent/sales-history', activity);

  return (
    <div className="space-y-6">
      <PageHeading title={`Welcome back, ${me.fullName}`}>
        Your agents, your users and your money at a glance.
      </PageHeading>

      <StatGrid
        stats={[
          balance,
          {
            testId: 'stat-agents',
            label: 'Agents',
            ...queryStat(agents, 'Failed to fetch agents', (data) => count(data.length)),
            hint: newAccountsHint(activity.data?.newAccounts.agent),
            icon: UsersRound,
          },
          {
            testId: 'stat-direct-users',
            label: 'Direct Users',
            ...queryStat(users, 'Failed to fetch users', (data) =>
              count(data.filter((user) => user.parentId === me.id).length),
            ),
            icon: UserCheck,
          },
          {
            testId: 'stat-total-users',
            label: 'Total Users',
            ...queryStat(users, 'Failed to fetch users', (data) => count(data.length)),
            hint: newAccountsHint(activity.data?.newAccounts.user),
            icon: Users,
          },
          voided,
        ]}
      />

      <ShiftSummaryCard listPath="/superagent/shifts" />

      <ActivityCard activity={activity} scope="games of your agents and users" />

      <RecentTransactionsAndLinks title="Quick Links" links={QUICK_LINKS} />
    </div>
  );
}
