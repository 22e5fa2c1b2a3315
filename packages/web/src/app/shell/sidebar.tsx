import { useEffect } from 'react';
import { NavLink } from 'react-router';
import { X } from 'lucide-react';
import { ROLE_LABELS } from '@lot/domain/roles';
import { Avatar } from '../../components/ui/avatar.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { menuFor } from './menus.ts';

/**
 * The role's menu. At 768 px and up it stands beside the page; below, it slides in over an
 * overlay and closes on the overlay, the close button and navigation. Closed there, it is also
 * invisible (after the slide) so that Tab does not walk through links that are off screen. Open,
 * Escape closes it too.
 */
export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useCurrentUser();
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  return (
    <>
      <div
        data-testid="sidebar-overlay"
        aria-hidden="true"
        onClick={onClose}
        className={`fixed inset-0 z-30 bg-slate-900/50 transition-opacity md:hidden print:hidden ${open ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
      />
      <aside
        id="sidebar"
        aria-label="Main menu"
        data-open={open}
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col bg-slate-900 text-slate-100 transition-[translate,visibility] duration-200 md:translate-x-0 print:hidden ${
          open ? 'translate-x-0' : '-translate-x-full max-md:invisible'
        }`}
      >
        <div className="flex h-16 items-center justify-between px-5">
          <span className="text-xl font-black tracking-[0.3em] text-white">LOT</span>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close menu"
            className="rounded-md p-1 text-slate-400 hover:text-white md:hidden"
          >
            <X className="h-5 w-5" />
          </button>
        </div>
        <div className="mx-4 mb-4 flex items-center gap-3 rounded-xl bg-slate-800/70 p-3">
          <Avatar userId={user.id} fullName={user.fullName} hasLogo={user.hasLogo} />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-white">{user.fullName}</p>
            <p className="text-xs text-slate-400">{ROLE_LABELS[user.role]}</p>
          </div>
        </div>
        <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto px-3 pb-6">
          {menuFor(user.role).map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              to={to}
              end
              onClick={onClose}
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition ${
                  isActive ? 'bg-indigo-600 text-white' : 'text-slate-300 hover:bg-slate-800 hover:text-white'
                }`
              }
            >
              <Icon className="h-5 w-5 shrink-0" aria-hidden="true" />
              {label}
            </NavLink>
          ))}
        </nav>
      </aside>
    </>
  );
}
