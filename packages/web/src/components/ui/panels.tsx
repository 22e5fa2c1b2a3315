import type { ReactNode } from 'react';
import { AlertTriangle, Inbox, Loader2, type LucideIcon } from 'lucide-react';
import { Button } from './button.tsx';

export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-10 text-slate-500">
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A failed load: the message, and a way to try again. */
export function ErrorPanel({
  message,
  onRetry,
  children,
}: {
  message: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="rounded-xl bg-rose-50 p-6 text-center ring-1 ring-rose-200">
      <AlertTriangle className="mx-auto h-8 w-8 text-rose-500" aria-hidden="true" />
      <h3 className="mt-2 font-semibold text-rose-800">Error</h3>
      <p className="mt-1 text-sm text-rose-700">{message}</p>
      <div className="mt-4 flex justify-center gap-2">
        {onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            Try Again
          </Button>
        )}
        {children}
      </div>
    </div>
  );
}

export function EmptyState({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center text-slate-500">
      <Inbox className="h-8 w-8 text-slate-300" aria-hidden="true" />
      <p>{message}</p>
      {children}
    </div>
  );
}

/** A screen's title and the line under it that says what the screen is for. */
export function PageHeading({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-500">{children}</p>
    </div>
  );
}

export function Card({
  title,
  actions,
  children,
  className = '',
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {title && <h2 className="text-base font-semibold text-slate-900">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function StatCard({
  label,
  value,
  hint,
  icon,
  failure,
  className = '',
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  /** Why the figure could not be loaded: the card then says "Couldn't load" in its value's place, without the hint. */
  failure?: string;
  className?: string;
}) {
  // h-full: every card fills its grid cell, so a row's cards line up whatever each one shows.
  return (
    <div className={`h-full rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 ${className}`}>
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-500">{label}</p>
        {icon && <span className="text-indigo-500">{icon}</span>}
      </div>
      <p className="mt-2 text-2xl font-bold tracking-tight text-slate-900">
        {failure ? (
          <span className="text-base font-semibold text-rose-600" title={failure}>
            Couldn&apos;t load<span className="sr-only">: {failure}</span>
          </span>
        ) : (
          value
        )}
      </p>
      {hint && !failure && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

/** A stat card's figure from a query: '…' while it loads, the failure (docs/product/screens.md) if it failed. */
export function queryStat<T>(
  query: { data: T | undefined; isError: boolean },
  failure: string,
  show: (data: T) => ReactNode,
): { value: ReactNode; failure?: string } {
  if (query.isError) return { value: null, failure };
  return { value: query.data === undefined ? '…' : show(query.data) };
}

export type Stat = {
  /** The card's test id ('stat-balance'). */
  testId: string;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  failure?: string;
  icon: LucideIcon;
};

/**
 * Where each of five figures sits: two to a row on a tablet (the fifth across), three and two on a
 * laptop, five in a row on a wide screen, so no row has a hole.
 */
const FIVE_STAT_GRID = 'sm:grid-cols-2 lg:grid-cols-6 2xl:grid-cols-5';
function fiveStatCell(index: number): string {
  if (index < 3) return 'lg:col-span-2 2xl:col-span-1';
  return `lg:col-span-3 2xl:col-span-1 ${index === 4 ? 'sm:col-span-2' : ''}`;
}

/**
 * A dashboard's figures: one column on a phone, two on a tablet, four on a wide screen (five as
 * FIVE_STAT_GRID places them); equal heights.
 */
export function StatGrid({ stats }: { stats: readonly Stat[] }) {
  const five = stats.length === 5;
  return (
    <div className={`grid gap-4 ${five ? FIVE_STAT_GRID : 'sm:grid-cols-2 xl:grid-cols-4'}`}>
      {stats.map(({ testId, icon: Icon, ...stat }, index) => (
        <div key={testId} data-testid={testId} className={five ? fiveStatCell(index) : undefined}>
          <StatCard className="h-full" {...stat} icon={<Icon className="h-5 w-5" aria-hidden="true" />} />
        </div>
      ))}
    </div>
  );
}

/**
 * One labelled sum of a balance sheet (a statement's or a day close's opening, movements and
 * closing); `emphasis` marks the result. `className` places it in its row.
 */
export function Figure({
  label,
  testId,
  children,
  emphasis = false,
  className = '',
}: {
  label: string;
  testId: string;
  children: ReactNode;
  emphasis?: boolean;
  className?: string;
}) {
  return (
    <div
      className={`rounded-xl px-4 py-3 ring-1 ${emphasis ? 'bg-indigo-50 ring-indigo-200' : 'bg-slate-50 ring-slate-200'} ${className}`}
    >
      <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</p>
      <p
        data-testid={testId}
        className="text-xl font-bold tracking-tight text-slate-900 tabular-nums sm:mt-1 sm:text-2xl print:mt-1"
      >
        {children}
      </p>
    </div>
  );
}

const NOTE_TONES = {
  indigo: 'bg-indigo-50 text-indigo-600',
  emerald: 'bg-emerald-50 text-emerald-600',
  slate: 'bg-slate-100 text-slate-500',
} as const;

/** A card's short note beside its icon in a tinted square (the profile's password and two-factor parts). */
export function IconNote({
  icon: Icon,
  tone,
  children,
}: {
  icon: LucideIcon;
  tone: keyof typeof NOTE_TONES;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <span className={`rounded-lg p-2 ${NOTE_TONES[tone]}`}>
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <div className="text-sm text-slate-600">{children}</div>
    </div>
  );
}
