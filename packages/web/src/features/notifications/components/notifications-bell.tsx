import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Bell } from 'lucide-react';
import { storage } from '../../../lib/storage.ts';
import { useDismiss } from '../../../lib/use-dismiss.ts';
import { useNotifications } from '../api/get-notifications.ts';

const loadPanel = () => import('./notifications-panel.tsx');
const NotificationsPanel = lazy(loadPanel);

/**
 * The header's bell (docs/product/screens.md#header, decision 022): the caller's events of the last
 * 7 days, with the number of those newer than the last look on this device. Opening the list marks
 * them seen; a click outside, Escape or a navigation closes it.
 */
export function NotificationsBell({ userId }: { userId: number }) {
  const { pathname } = useLocation();
  const notifications = useNotifications();
  const [open, setOpen] = useState(false);
  const [seenUntil, setSeenUntil] = useState(() => storage.getSeenUntil(userId));
  // What counted as seen when the list opened: the list marks the rest new while it stays open.
  const [seenAtOpen, setSeenAtOpen] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const items = notifications.data?.items ?? [];
  const unread = items.filter((item) => seenUntil === null || item.at > seenUntil).length;

  const [shownAt, setShownAt] = useState(pathname);
  if (shownAt !== pathname) {
    setShownAt(pathname);
    setOpen(false);
  }
  useDismiss(open, box, close);
  return (
    <div className="relative" ref={box}>
      <button
        type="button"
        aria-label={unread > 0 ? `Notifications, ${unread} new` : 'Notifications'}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => {
          if (open) return setOpen(false);
          // What the list shows as it opens has been seen from now on.
          setSeenAtOpen(seenUntil);
          setOpen(true);
          const newest = items[0]?.at;
          if (newest !== undefined && (seenUntil === null || newest > seenUntil)) {
            storage.saveSeenUntil(userId, newest);
            setSeenUntil(newest);
          }
        }}
        onPointerEnter={() => void loadPanel()}
        className="relative rounded-full p-2 text-slate-500 hover:bg-slate-100"
      >
        <Bell className="h-5 w-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute top-0.5 right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] leading-none font-semibold text-white"
          >
            {unread > 9 ? '9+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          role="dialog"
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-30 rounded-xl bg-white shadow-lg ring-1 ring-slate-200 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
        >
          <Suspense fallback={<p className="px-4 py-3 text-sm text-slate-500">Loading...</p>}>
            <NotificationsPanel
              userId={userId}
              items={items}
              seenUntil={seenAtOpen}
              isLoading={notifications.isPending}
              error={notifications.isError ? notifications.error.message || "Couldn't load notifications" : null}
              onRetry={() => void notifications.refetch()}
              onPick={() => setOpen(false)}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}
