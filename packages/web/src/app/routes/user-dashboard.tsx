import { lazy, Suspense, useState, type ReactNode } from 'react';
import {
  ArrowDownLeft,
  ArrowLeftRight,
  ArrowUpRight,
  Dices,
  ListOrdered,
  Play,
  UserCircle,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import type { LinkItem } from '../../components/ui/link-list.tsx';
import { PageHeading, queryStat, StatGrid } from '../../components/ui/panels.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count, money } from '../../lib/format.ts';
import { useBalance } from '../../features/transactions/api/get-balance.ts';
import { useMoneyFlow } from '../../features/transactions/api/get-money-flow.ts';
import { useRecentTransactions } from '../../features/transactions/api/get-recent-transactions.ts';
import { ActivityCard, useDashboardActivity } from '../compositions/activity.tsx';
import { RecentTransactionsAndLinks, useBalanceStat } from '../compositions/dashboard.tsx';

// The transfer form (react-hook-form, zod, the receiver search) loads when it is about to be used,
// not with the dashboard's first screen.
const loadTransferModal = () => import('../../features/transactions/components/transfer-modal.tsx');
const TransferModal = lazy(() => loadTransferModal().then((module) => ({ default: module.TransferModal })));

const QUICK_LINKS: LinkItem[] = [
  { to: '/transactions', label: 'View Transactions', icon: ListOrdered },
  { to: '/profile', label: 'Go to Profile', icon: UserCircle },
];

/**
 * docs/product/screens.md#user-dashboard (/user/dashboard): My Balance, Total Sent, Total Received, Transactions; the 5
 * latest transactions; Current Balance with Transfer Funds; quick links; the BOCH BOCH Game card.
 */
export function UserDashboardRoute() {
  const me = useCurrentUser();
  const [transferOpen, setTransferOpen] = useState(false);
  const balance = useBalance();
  const balanceStat = useBalanceStat('Available to play and transfer');
  const sent = useMoneyFlow('sent');
  const received = useMoneyFlow('received');
  // The same query as the Recent Transactions card: its total is every transaction of the user.
  const recent = useRecentTransactions();
  const activity = useDashboardActivity();

  return (
    <div className="space-y-6">
      <PageHeading title={`Welcome back, ${me.fullName}`}>
        {me.shopName ? `${me.shopName}: your` : 'Your'} balance, your money moves and your game.
      </PageHeading>

      <StatGrid
        stats={[
          balanceStat,
          {
            testId: 'stat-sent',
            label: 'Total Sent',
            ...queryStat(sent, 'Failed to fetch transactions', (data) => money(data.amount)),
            hint: sent.data ? `${count(sent.data.count)} out: transfers and games` : undefined,
            icon: ArrowUpRight,
          },
          {
            testId: 'stat-received',
            label: 'Total Received',
            ...queryStat(received, 'Failed to fetch transactions', (data) => money(data.amount)),
            hint: received.data ? `${count(received.data.count)} in: top-ups and transfers` : undefined,
            icon: ArrowDownLeft,
          },
          {
            testId: 'stat-transactions',
            label: 'Transactions',
            ...queryStat(recent, 'Failed to fetch transactions', (data) => count(data.total)),
            hint: 'Every money move of yours',
            icon: ArrowLeftRight,
          },
        ]}
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <HeroCard
          id="current-balance"
          gradient="from-indigo-600 to-violet-600"
          icon={Wallet}
          action={
            <Button
              variant="secondary"
              className="w-full !text-indigo-700 sm:w-auto sm:self-start"
              onPointerEnter={() => void loadTransferModal()}
              onFocus={() => void loadTransferModal()}
              onClick={() => setTransferOpen(true)}
            >
              <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
              Transfer Funds
            </Button>
          }
        >
          <h3 id="current-balance" className="text-sm font-medium text-indigo-100">
            Current Balance
          </h3>
          <p data-testid="current-balance" className="text-3xl font-bold tracking-tight tabular-nums">
            {balance.data ? money(balance.data.amount) : balance.isError ? '—' : '…'}
          </p>
          {balance.isError && <p className="text-sm text-rose-100">Failed to fetch balance</p>}
        </HeroCard>

        <HeroCard
          id="boch-boch"
          gradient="from-emerald-500 to-teal-600"
          icon={Dices}
          action={
            <Link
              to="/user/number-game"
              className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-emerald-700 shadow-sm transition hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white sm:w-auto sm:self-start"
            >
              <Play className="h-4 w-4" aria-hidden="true" />
              Play Now
            </Link>
          }
        >
          <h3 id="boch-boch" className="text-lg font-bold tracking-tight">
            BOCH BOCH Game
          </h3>
          <p className="text-sm text-emerald-50">Pick numbers for your players, draw the winners, pay the prizes.</p>
        </HeroCard>
      </div>

      <ActivityCard activity={activity} scope="your games" />

      <RecentTransactionsAndLinks
        title="Quick Links"
        links={QUICK_LINKS}
        linksClassName="sm:grid-cols-2 2xl:grid-cols-1"
      />

      {transferOpen && (
        <Suspense fallback={null}>
          <TransferModal open onClose={() => setTransferOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

/** A coloured card with an icon, its text (whose heading has the id `id`) and one action below. */
function HeroCard({
  id,
  gradient,
  icon: Icon,
  action,
  children,
}: {
  id: string;
  gradient: string;
  icon: LucideIcon;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`flex flex-col justify-between gap-4 rounded-2xl bg-gradient-to-br ${gradient} p-5 text-white shadow-sm sm:p-6`}
    >
      <div className="flex items-center gap-4">
        <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-white/15">
          <Icon className="h-6 w-6" aria-hidden="true" />
        </span>
        <div>{children}</div>
      </div>
      {action}
    </section>
  );
}
