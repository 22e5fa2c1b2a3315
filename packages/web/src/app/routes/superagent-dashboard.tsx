import { ArrowLeftRight, UserCircle, UserCheck, Users, UsersRound, Wallet } from 'lucide-react';
import { LinkList, type LinkItem } from '../../components/ui/link-list.tsx';
import { Card, queryValue, StatCard } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count, money } from '../../lib/format.ts';
import { useScopedUsers } from '../../features/users/api/get-scoped-users.ts';
import { useBalance } from '../../features/transactions/api/get-balance.ts';
import { RecentTransactionsCard } from '../../features/transactions/components/recent-transactions-card.tsx';

const QUICK_LINKS: LinkItem[] = [
  { to: '/superagent/agents', label: 'Manage Agents', icon: UsersRound },
  { to: '/superagent/users', label: 'Manage Users', icon: Users },
  { to: '/transactions', label: 'View Transactions', icon: ArrowLeftRight },
  { to: '/profile', label: 'Go to Profile', icon: UserCircle },
];

/** Spec screen 9: My Balance, Agents, Direct Users, Total Users; the 5 latest transactions; quick links. */
export function SuperagentDashboardRoute() {
  const me = useCurrentUser();
  const balance = useBalance();
  const agents = useScopedUsers('agent');
  const users = useScopedUsers('user');

  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">Welcome back, {me.fullName}</h2>
        <p className="mt-1 text-sm text-slate-500">Your agents, your users and your money at a glance.</p>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <div data-testid="stat-balance">
          <StatCard
            label="My Balance"
            value={queryValue(balance, 'Failed to fetch balance', (data) => money(data.amount))}
            icon={<Wallet className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-agents">
          <StatCard
            label="Agents"
            value={queryValue(agents, 'Failed to fetch agents', (data) => count(data.length))}
            icon={<UsersRound className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-direct-users">
          <StatCard
            label="Direct Users"
            value={queryValue(users, 'Failed to fetch users', (data) =>
              count(data.filter((user) => user.parentId === me.id).length),
            )}
            icon={<UserCheck className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-total-users">
          <StatCard
            label="Total Users"
            value={queryValue(users, 'Failed to fetch users', (data) => count(data.length))}
            icon={<Users className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
      </div>

      <div className="grid items-start gap-6 2xl:grid-cols-3">
        <RecentTransactionsCard viewAllTo="/transactions" className="2xl:col-span-2" />
        <Card title="Quick Links">
          <LinkList links={QUICK_LINKS} />
        </Card>
      </div>
    </div>
  );
}
