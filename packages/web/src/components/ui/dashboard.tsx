import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { StatCard } from './panels.tsx';

/** A dashboard's opening: 'Welcome back, {name}' and a line about what the screen shows. */
export function DashboardWelcome({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight text-slate-900">Welcome back, {name}</h2>
      <p className="mt-1 text-sm text-slate-500">{children}</p>
    </div>
  );
}

export type Stat = {
  /** The card's test id ('stat-balance'). */
  testId: string;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon: LucideIcon;
};

/** A dashboard's figures: one column on a phone, two on a tablet, four on a wide screen; equal heights. */
export function StatGrid({ stats }: { stats: readonly Stat[] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {stats.map(({ testId, icon: Icon, ...stat }) => (
        <div key={testId} data-testid={testId}>
          <StatCard className="h-full" {...stat} icon={<Icon className="h-5 w-5" aria-hidden="true" />} />
        </div>
      ))}
    </div>
  );
}
