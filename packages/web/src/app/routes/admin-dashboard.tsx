import { Activity, BarChart3, DollarSign, UserCheck, Users, UsersRound } from 'lucide-react';
import { useVoidedGamesStat } from '../compositions/dashboard.tsx';
import { Card, FIVE_STAT_GRID, fiveStatCell, queryStat, StatCard } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count, money } from '../../lib/format.ts';
import { useRecentTransactions } from '../../features/transactions/api/get-recent-transactions.ts';
import { useRoleCount } from '../../features/admin-dashboard/api/get-role-count.ts';
import { RecentTransactionsCard } from '../../features/transactions/components/recent-transactions-card.tsx';

/** The documented placeholder changes ('+12', '+8'): static, there is no history to compare with yet. */
function Change({ value }: { value: string }) {
  return (
    <span>
      <span className="font-semibold text-emerald-600">{value}</span> from last month
    </span>
  );
}

/** docs/product/screens.md#admin-dashboard: four cards, the 5 latest transactions and a place for the activity chart. */
export function AdminDashboardRoute() {
  const me = useCurrentUser();
  const users = useRoleCount('user');
  const superagents = useRoleCount('superagent');
  const agents = useRoleCount('agent');
  const recent = useRecentTransactions();
  const voided = useVoidedGamesStat('/admin/sales-history');

  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">Welcome back, {me.fullName}</h2>
        <p className="mt-1 text-sm text-slate-500">An overview of the people and the money in the system.</p>
      </div>

      <div className={`grid gap-4 ${FIVE_STAT_GRID}`}>
        <div data-testid="stat-users" className={fiveStatCell(0)}>
          <StatCard
            label="Total Users"
            {...queryStat(users, 'Failed to fetch users', count)}
            hint={<Change value="+12%" />}
            icon={<Users className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-superagents" className={fiveStatCell(1)}>
          <StatCard
            label="Super Agents"
            {...queryStat(superagents, 'Failed to fetch users', count)}
            hint={<Change value="+8%" />}
            icon={<UserCheck className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-agents" className={fiveStatCell(2)}>
          <StatCard
            label="Agents"
            {...queryStat(agents, 'Failed to fetch users', count)}
            hint={<Change value="+12%" />}
            icon={<UsersRound className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid="stat-volume" className={fiveStatCell(3)}>
          <StatCard
            label="Transaction Volume"
            {...queryStat(recent, 'Failed to fetch transactions', (data) => money(data.volume))}
            hint={<Change value="+8%" />}
            icon={<DollarSign className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
        <div data-testid={voided.testId} className={fiveStatCell(4)}>
          <StatCard
            label={voided.label}
            value={voided.value}
            failure={voided.failure}
            hint={voided.hint}
            icon={<voided.icon className="h-5 w-5" aria-hidden="true" />}
          />
        </div>
      </div>

      <div className="grid items-start gap-6 2xl:grid-cols-3">
        <RecentTransactionsCard viewAllTo="/admin/transactions" className="2xl:col-span-2" />
        <Card title="Activity">
          <div className="flex h-40 flex-col items-center md:h-64 justify-center gap-3 rounded-xl border border-dashed border-slate-300 bg-slate-50 text-center">
            <span className="flex items-center gap-2 text-slate-300" aria-hidden="true">
              <BarChart3 className="h-8 w-8" />
              <Activity className="h-8 w-8" />
            </span>
            <p className="text-sm text-slate-500">Activity chart will be displayed here</p>
          </div>
        </Card>
      </div>
    </div>
  );
}
