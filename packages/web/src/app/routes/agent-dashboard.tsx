import { ArrowLeftRight, ListOrdered, UserCheck, UserCircle, Users, Wallet, WalletCards } from 'lucide-react';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import { LinkList, type LinkItem } from '../../components/ui/link-list.tsx';
import { Card, queryValue, StatCard } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count, money } from '../../lib/format.ts';
import { useScopedUsers } from '../../features/users/api/get-scoped-users.ts';
import { useBalance } from '../../features/transactions/api/get-balance.ts';
import { RecentTransactionsCard } from '../../features/transactions/components/recent-transactions-card.tsx';

const QUICK_ACTIONS: LinkItem[] = [
  { to: '/agent/users', label: 'Go to Users', icon: Users },
  { to: '/transactions', label: 'Go to Transfers', icon: ArrowLeftRight },
  { to: '/transactions', label: 'View Transactions', icon: ListOrdered },
  { to: '/profile', label: 'Go to Profile', icon: UserCircle },
];

/** Spec screen 13: a welcome, My Balance, Users, Active Users, Users Balance, the 5 latest transactions, Quick Actions. */
export function AgentDashboardRoute() {
  const me = useCurrentUser();
  const balance = useBalance();
  const scoped = useScopedUsers('user');
  // Spec section 6: an agent's users are those whose parent is the agent.
  const users = { ...scoped, data: scoped.data?.filter((user) => user.parentId === me.id) };

  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">Welcome back, {me.fullName}</h2>
        <p className="mt-1 text-sm text-slate-500">Here is what is happening with your users today.</p>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <div data-testid="stat-balance">
          <StatCard
            label="My Balance"
            value={queryValue(balance, 'Failed to fetch balance', (data) => money(data.amount))}
            icon={<Wallet className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-users">
          <StatCard
            label="Users"
            value={queryValue(users, 'Failed to fetch users', (data) => count(data.length))}
            icon={<Users className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-active-users">
          <StatCard
            label="Active Users"
            value={queryValue(users, 'Failed to fetch users', (data) =>
              count(data.filter((user) => user.status === 'active').length),
            )}
            icon={<UserCheck className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-users-balance">
          <StatCard
            label="Users Balance"
            value={queryValue(users, 'Failed to fetch users', (data) =>
              // Summed in integer cents: money is never added in floating point.
              formatMoney(data.reduce((sum, user) => sum + decimalToCents(user.balance.amount), 0)),
            )}
            icon={<WalletCards className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
      </div>

      <div className="grid items-start gap-6 2xl:grid-cols-3">
        <RecentTransactionsCard viewAllTo="/transactions" className="2xl:col-span-2" />
        <Card title="Quick Actions">
          <LinkList links={QUICK_ACTIONS} />
        </Card>
      </div>
    </div>
  );
}
