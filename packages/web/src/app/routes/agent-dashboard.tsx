import { ArrowLeftRight, ListOrdered, UserCheck, UserCircle, Users, WalletCards } from 'lucide-react';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import type { LinkItem } from '../../components/ui/link-list.tsx';
import { PageHeading, queryStat, StatGrid } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count } from '../../lib/format.ts';
import { useScopedUsers } from '../../features/users/api/get-scoped-users.ts';
import { ActivityCard, newAccountsHint, useDashboardActivity } from '../compositions/activity.tsx';
import { RecentTransactionsAndLinks, useBalanceStat, useFlaggedGamesStat } from '../compositions/dashboard.tsx';
import { ShiftSummaryCard } from '../../features/shifts/components/shifts-summary-card.tsx';

const QUICK_ACTIONS: LinkItem[] = [
  { to: '/agent/users', label: 'Go to Users', icon: Users },
  { to: '/transactions', label: 'Go to Transfers', icon: ArrowLeftRight },
  { to: '/transactions', label: 'View Transactions', icon: ListOrdered },
  { to: '/profile', label: 'Go to Profile', icon: UserCircle },
];

/** docs/product/screens.md#agent-dashboard: a welcome, My Balance, Users, Active Users, Users Balance, the 5 latest transactions, Quick Actions. */
export function AgentDashboardRoute() {
  const me = useCurrentUser();
  const balance = useBalanceStat();
  const scoped = useScopedUsers('user');
  // docs/product/roles-and-scope.md#scope: an agent's users are those whose parent is the agent.
  const activity = useDashboardActivity();
  const voided = useFlaggedGamesStat('/agent/sales-history', activity);
  const users = { ...scoped, data: scoped.data?.filter((user) => user.parentId === me.id) };

  return (
    <div className="space-y-6">
      <PageHeading title={`Welcome back, ${me.fullName}`}>Here is what is happening with your users today.</PageHeading>

      <StatGrid
        stats={[
          balance,
          {
            testId: 'stat-users',
            label: 'Users',
            ...queryStat(users, 'Failed to fetch users', (data) => count(data.length)),
            hint: newAccountsHint(activity.data?.newAccounts.user),
            icon: Users,
          },
          {
            testId: 'stat-active-users',
            label: 'Active Users',
            ...queryStat(users, 'Failed to fetch users', (data) =>
              count(data.filter((user) => user.status === 'active').length),
            ),
            icon: UserCheck,
          },
          {
            testId: 'stat-users-balance',
            label: 'Users Balance',
            ...queryStat(users, 'Failed to fetch users', (data) =>
              // Summed in integer cents: money is never added in floating point.
              formatMoney(data.reduce((sum, user) => sum + decimalToCents(user.balance.amount), 0)),
            ),
            icon: WalletCards,
          },
          voided,
        ]}
      />

      <ShiftSummaryCard listPath="/agent/shifts" />

      <ActivityCard activity={activity} scope="games of your users" />

      <RecentTransactionsAndLinks title="Quick Actions" links={QUICK_ACTIONS} />
    </div>
  );
}
