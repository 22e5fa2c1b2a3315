import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

export type LinkItem = { to: string; label: string; icon: LucideIcon };

/** A dashboard's quick links: one full-width row each, easy to hit on a phone. */
export function LinkList({ links, className = '' }: { links: readonly LinkItem[]; className?: string }) {
  return (
    <nav aria-label="Quick links" className={`grid gap-2 ${className}`}>
      {links.map(({ to, label, icon: Icon }) => (
        <Link
          key={label}
          to={to}
          className="flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 ring-1 ring-slate-200 transition hover:bg-indigo-50 hover:text-indigo-700"
        >
          <Icon className="h-4 w-4 text-indigo-500" aria-hidden="true" />
          {label}
        </Link>
      ))}
    </nav>
  );
}
