import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowDownLeft, ArrowUpRight, Ban, Globe2, History, ShieldAlert } from 'lucide-react';
import { gameTitle } from '@lot/domain/game';
import type { Notification } from '@lot/domain/schemas/notifications';
import { dateTime, money } from '../../../lib/format.ts';

type Props = {
  userId: number;
  items: Notification[];
  /** Events at or before this instant were seen before the list opened. */
  seenUntil: string | null;
  isLoading: boolean;
  error: string | null;
  onRetry: () => void;
  onPick: () => void;
};

/** What an event says, where it leads and its icon. */
function describe(item: Notification, userId: number): { text: ReactNode; href: string; icon: ReactNode } {
  switch (item.kind) {
    case 'received':
      return {
        text:
          item.type === 'topup' ? (
            <>
              Top-up of <strong>{money(item.amount)}</strong> from {item.from?.fullName ?? 'Unknown'}
            </>
          ) : (
            <>
              <strong>{money(item.amount)}</strong> received from {item.from?.fullName ?? 'Unknown'}
            </>
          ),
        href: `/statements/${userId}`,
        icon: <ArrowDownLeft className="h-4 w-4 text-emerald-600" />,
      };
    case 'takenBack':
      return {
        text: (
          <>
            <strong>{money(item.amount)}</strong> taken back by {item.by?.fullName ?? 'Unknown'}
            {item.reason ? `: ${item.reason}` : ''}
          </>
        ),
        href: `/statements/${userId}`,
        icon: <ArrowUpRight className="h-4 w-4 text-rose-600" />,
      };
    case 'corrected':
      return {
        text: (
          <>
            Correction of <strong>{money(item.amount)}</strong> by {item.by?.fullName ?? 'Unknown'}
            {item.reason ? `: ${item.reason}` : ''}
          </>
        ),
        href: `/statements/${userId}`,
        icon: <ArrowUpRight className="h-4 w-4 text-rose-600" />,
      };
    case 'voided':
      // After a winner (decision 094): its void's audit row kept the prizes announced.
      return {
        text: (
          <>
            {item.prizesAnnounced !== null && <strong>After a winner: </strong>}
            {gameTitle(item.gameNumber)} of {item.player.fullName} voided{item.reason ? `: ${item.reason}` : ''}
          </>
        ),
        href: `/verify/${item.code}`,
        icon: <Ban className={`h-4 w-4 ${item.prizesAnnounced !== null ? 'text-rose-600' : 'text-amber-600'}`} />,
      };
    case 'beforeClaims':
      return {
        text: (
          <>
            <strong>{item.count}</strong> prize{item.count === 1 ? '' : 's'} ({money(item.amount)}) won before prize
            claims existed: not payable, payment not recorded. Review and mark them paid.
          </>
        ),
        href: '/admin/unpaid-prizes?status=before_claims',
        icon: <History className="h-4 w-4 text-slate-600" />,
      };
    case 'logForked':
      return {
        text: (
          <>
            <strong>Freezes refused:</strong> {item.reason}. Start a new game log on purpose (a new LOG_ORIGIN) to
            freeze games again.
          </>
        ),
        href: '/audit',
        icon: <ShieldAlert className="h-4 w-4 text-rose-600" />,
      };
    case 'signinFailed':
      return {
        text: <>Failed sign-in to your account from {item.address}</>,
        href: '/profile',
        icon: <ShieldAlert className="h-4 w-4 text-rose-600" />,
      };
    case 'serverRandomness':
      return {
        text: item.allowed ? (
          <>
            {item.by?.fullName ?? 'An admin'} <strong>allowed LOT-DRAW-1</strong> (server randomness only) while the
            beacon cannot be reached
          </>
        ) : (
          <>{item.by?.fullName ?? 'An admin'} stopped LOT-DRAW-1: games wait for the beacon again</>
        ),
        href: '/profile#randomness',
        icon: <Globe2 className="h-4 w-4 text-amber-600" />,
      };
  }
}

/**
 * The bell's list (loaded the first time the bell is pointed at or opened): each event a link to
 * where it can be looked into: money to one's statement, a voided game to its proof, a failed
 * sign-in to the profile (to change the password), a change of the LOT-DRAW-1 permission to the
 * admin's profile (its Public randomness card).
 */
export default function NotificationsPanel({ userId, items, seenUntil, isLoading, error, onRetry, onPick }: Props) {
  return (
    <div>
      <p className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">
        Notifications <span className="font-normal text-slate-500">· last 7 days</span>
      </p>
      {isLoading ? (
        <p className="px-4 py-3 text-sm text-slate-500">Loading...</p>
      ) : error !== null ? (
        <div className="px-4 py-3 text-sm text-rose-700" role="alert">
          {error}{' '}
          <button type="button" onClick={onRetry} className="font-medium text-indigo-700 underline">
            Try Again
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">Nothing new in the last 7 days.</p>
      ) : (
        <ul className="max-h-[min(26rem,70vh)] divide-y divide-slate-100 overflow-y-auto">
          {items.map((item) => {
            const { text, href, icon } = describe(item, userId);
            const unread = seenUntil === null || item.at > seenUntil;
            return (
              <li key={item.key}>
                <Link
                  to={href}
                  onClick={onPick}
                  className={`flex gap-3 px-4 py-3 text-sm hover:bg-slate-50 ${unread ? 'bg-indigo-50/60' : ''}`}
                >
                  <span aria-hidden="true" className="mt-0.5 shrink-0">
                    {icon}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block text-slate-800">{text}</span>
                    <span className="block text-xs text-slate-500">
                      {dateTime(item.at)}
                      {unread && <span className="ml-2 font-semibold text-indigo-700">New</span>}
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
