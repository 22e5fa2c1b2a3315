import { useCallback, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LogOut, Menu } from 'lucide-react';
import { ROLE_LABELS } from '@lot/domain/roles';
import { Avatar } from '../../components/ui/avatar.tsx';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell.tsx';
import { HeaderSearch } from '../../features/search/components/header-search.tsx';
import { useAuth, useCurrentUser } from '../../lib/auth.tsx';
import { useDismiss } from '../../lib/use-dismiss.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { titleFor } from './menus.ts';

/** Sticky header: title from the path, the search, the bell, the user menu (decision 022). */
export function Header({ onMenu }: { onMenu: () => void }) {
  const user = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const title = titleFor(pathname);
  useDocumentTitle(title);
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);

  // Clicks outside close the menu, and so does Escape; choosing an item closes it too.
  useDismiss(open, menu, close);

  return (
    <header className="sticky top-0 z-20 flex print:hidden h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
      <button
        type="button"
        onClick={onMenu}
        aria-label="Open menu"
        aria-controls="sidebar"
        className="rounded-md p-2 text-slate-600 hover:bg-slate-100 md:hidden"
      >
        <Menu className="h-5 w-5" />
      </button>
      <h1 className="truncate text-lg font-semibold text-slate-900">{title}</h1>
      <HeaderSearch />
      <NotificationsBell userId={user.id} />
      <div className="relative" ref={menu}>
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="flex items-center gap-2 rounded-full p-1 hover:bg-slate-100 sm:pr-3"
        >
          <Avatar userId={user.id} fullName={user.fullName} hasLogo={user.hasLogo} size="sm" />
          <span className="hidden text-left sm:block">
            <span className="block text-sm font-medium leading-4 text-slate-900">{user.fullName}</span>
            <span className="block text-xs text-slate-600">{ROLE_LABELS[user.role]}</span>
          </span>
          {/* The name is what the button shows (full name and role on a wider screen), then what it does. */}
          <span className="sr-only">User menu</span>
        </button>
        {open && (
          <div
            role="menu"
            className="absolute right-0 mt-2 w-52 rounded-xl bg-white py-2 shadow-lg ring-1 ring-slate-200"
          >
            <div className="border-b border-slate-100 px-4 pb-2 sm:hidden">
              <p className="text-sm font-medium text-slate-900">{user.fullName}</p>
              <p className="text-xs text-slate-500">{ROLE_LABELS[user.role]}</p>
            </div>
            <Link
              role="menuitem"
              to="/profile"
              onClick={() => setOpen(false)}
              className="block px-4 py-2 text-sm text-slate-700 hover:bg-slate-50"
            >
              Profile
            </Link>
            <Link
              role="menuitem"
              to="/transactions"
              onClick={() => setOpen(false)}
              className="block px-4 py-2 text-sm text-slate-700 hover:bg-slate-50"
            >
              Transactions
            </Link>
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                logout();
                navigate('/login', { replace: true });
              }}
              className="flex w-full items-center gap-2 px-4 py-2 text-left text-sm text-rose-700 hover:bg-rose-50"
            >
              <LogOut className="h-4 w-4" /> Logout
            </button>
          </div>
        )}
      </div>
    </header>
  );
}
