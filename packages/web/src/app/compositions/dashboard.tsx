import { Link } from 'react-router';
import { Ban, Wallet } from 'lucide-react';
import { LinkList, type LinkItem } from '../../components/ui/link-list.tsx';
import { Card, queryStat, type Stat } from '../../components/ui/panels.tsx';
import type { Activity } from '@lot/domain/schemas/reports';
import { count, money } from '../../lib/format.ts';
import { DASHBOARD_DAYS } from '../../features/reports/api/get-activity.ts';
import { useBalance } from '../../features/transactions/api/get-balance.ts';
import { RecentTransactionsCard } from '../../features/transactions/components/recent-transactions-card.tsx';

/** The My Balance figure of the super agent's, the agent's and the user's dashboards. */
export function useBalanceStat(hint?: string): Stat {
  const balance = useBalance();
  return {
    testId: 'stat-balance',
    label: 'My Balance',
    ...queryStat(balance, 'Failed to fetch balance', (data) => money(data.amount)),
    hint,
    icon: Wallet,
  };
}

/**
 * The figure of the admin's, the super agent's and the agent's dashboards that counts the games of
 * their scope opened in the last 30 days whose outcome cannot be taken on trust: voided after their
 * freeze, or run on server randomness only (LOT-DRAW-1) — counted alike, each once
 * (docs/product/reports.md#activity) — with the way to the voided list on their sales-history screen,
 * and for the admin to the LOT-DRAW-1 games per shop (`byShopPath`, decision 061).
 */
export function useFlaggedGamesStat(
  historyPath: string,
  activity: { data: Activity | undefined; isError: boolean },
  byShopPath?: string,
): Stat {
  const flagged = activity.data?.flaggedGames;
  return {
    testId: 'stat-voided-games',
    label: 'Voided or server-randomness games',
    ...queryStat(activity, 'Failed to fetch the activity', (data) =>
      count(data.flaggedGames.voided + data.flaggedGames.serverRandomness),
    ),
    hint: (
      <>
        {flagged && (
          <span data-testid="flagged-breakdown" className="block">
            {count(flagged.voided)} voided
            {flagged.voidedAfterWinner > 0 && (
              <span data-testid="flagged-after-winner" className="font-semibold text-rose-700">
                {' '}
                ({count(flagged.voidedAfterWinner)} voided after a winner)
              </span>
            )}{' '}
            · {count(flagged.serverRandomness)} LOT-DRAW-1 (server randomness only), last {DASHBOARD_DAYS} days
          </span>
        )}
        <Link to={`${historyPath}?view=voided`} className="font-semibold text-indigo-600 hover:text-indigo-700">
          View voided games
        </Link>
        {byShopPath && (
          <>
            {' · '}
            <Link to={byShopPath} className="font-semibold text-indigo-600 hover:text-indigo-700">
              LOT-DRAW-1 per shop
            </Link>
          </>
        )}
      </>
    ),
    icon: Ban,
  };
}

/** The dashboards' last row: the 5 latest transactions, and beside them (under them on a phone) the links. */
export function RecentTransactionsAndLinks({
  title,
  links,
  linksClassName,
}: {
  /** 'Quick Links' or 'Quick Actions' (docs/product/screens.md: the super agent's, agent's, user's dashboards). */
  title: string;
  links: readonly LinkItem[];
  linksClassName?: string;
}) {
  return (
    // grid-cols-1 (minmax(0, 1fr)): a wide table scrolls inside its card instead of widening the page.
    <div className="grid grid-cols-1 items-start gap-6 2xl:grid-cols-3">
      <RecentTransactionsCard viewAllTo="/transactions" className="2xl:col-span-2" />
      <Card title={title}>
        <LinkList links={links} className={linksClassName} />
      </Card>
    </div>
  );
}
