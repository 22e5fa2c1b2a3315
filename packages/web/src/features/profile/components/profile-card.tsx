import { AtSign, Store, UserRound } from 'lucide-react';
import { ROLE_LABELS } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { Avatar } from '../../../components/ui/avatar.tsx';

/** Who is signed in: the logo (or the initial), name, username, role and shop. */
export function ProfileCard({ user }: { user: User }) {
  const details = [
    { label: 'Username', value: user.username, icon: AtSign },
    { label: 'Shop Name', value: user.shopName, icon: Store, empty: 'No shop name' },
    ...(user.parent ? [{ label: 'Managed by', value: user.parent.fullName, icon: UserRound }] : []),
  ];
  return (
    <section aria-label="Your profile" className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="h-20 bg-gradient-to-r from-indigo-600 to-violet-500" aria-hidden="true" />
      <div className="-mt-12 flex flex-col items-center px-6 pb-6 text-center">
        <span className="rounded-full bg-white p-1 shadow-sm">
          <Avatar userId={user.id} fullName={user.fullName} hasLogo={user.hasLogo} size="xl" />
        </span>
        <h2 className="mt-3 text-lg font-semibold break-words text-slate-900">{user.fullName}</h2>
        <p className="text-sm text-slate-500">@{user.username}</p>
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          <span className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200">
            {ROLE_LABELS[user.role]}
          </span>
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ring-1 ${
              user.status === 'active'
                ? 'bg-emerald-50 text-emerald-700 ring-emerald-200'
                : 'bg-slate-100 text-slate-600 ring-slate-200'
            }`}
          >
            {user.status}
          </span>
        </div>
        <dl className="mt-6 w-full divide-y divide-slate-100 border-t border-slate-100 text-left text-sm">
          {details.map(({ label, value, icon: Icon, empty }) => (
            <div key={label} className="flex items-center gap-3 py-3">
              <Icon className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
              <dt className="text-slate-500">{label}</dt>
              <dd
                className={`ml-auto min-w-0 truncate text-right ${value ? 'font-medium text-slate-900' : 'text-slate-500'}`}
              >
                {value || empty}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
