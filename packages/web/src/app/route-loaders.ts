import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { ROLES } from '@lot/domain/roles';
import type { SessionUser } from '@lot/domain/schemas/auth';
import { queryClient } from '../lib/query-client.ts';
import { storage } from '../lib/storage.ts';
import { roleCountQuery } from '../features/admin-dashboard/api/get-role-count.ts';
import { dayCloseQuery, dayCloseQueryAt } from '../features/day-close/api/get-day-close.ts';
import { playGameQuery } from '../features/play/api/get-current-game.ts';
import { effectiveWinnersQuery } from '../features/play/api/get-effective-winners.ts';
import { profileQuery } from '../features/profile/api/get-profile.ts';
import { activityQuery, dashboardActivityQuery } from '../features/reports/api/get-activity.ts';
import { downlineQuery, downlineQueryAt } from '../features/reports/api/get-downline.ts';
import { adminSalesQuery } from '../features/sales-history/api/get-admin-sales.ts';
import { agentSalesQuery } from '../features/sales-history/api/get-agent-sales.ts';
import { superagentSalesQuery } from '../features/sales-history/api/get-superagent-sales.ts';
import { userSalesQuery } from '../features/sales-history/api/get-user-sales.ts';
import { statementQuery, statementQueryAt } from '../features/statements/api/get-statement.ts';
import { balanceQuery } from '../features/transactions/api/get-balance.ts';
import { moneyFlowQuery } from '../features/transactions/api/get-money-flow.ts';
import { recentTransactionsQuery } from '../features/transactions/api/get-recent-transactions.ts';
import { transactionsQuery } from '../features/transactions/api/get-transactions.ts';
import { scopedUsersQuery } from '../features/users/api/get-scoped-users.ts';
import { currentShiftQuery } from '../features/shifts/api/get-current-shift.ts';
import { shiftReportQuery } from '../features/shifts/api/get-shift-report.ts';
import { NO_SHIFTS_FILTER, shiftsFilterAt, shiftsQuery } from '../features/shifts/api/get-shifts.ts';
import { shiftSummaryQuery } from '../features/shifts/api/get-shifts-summary.ts';

type Prefetch = <Data, Key extends QueryKey>(options: FetchQueryOptions<Data, Error, Data, Key>) => void;
type Start = (prefetch: Prefetch, user: SessionUser, args: LoaderFunctionArgs) => void;

/**
 * A route loader that starts the screen's first fetches as navigation begins, together with its
 * code chunk, instead of after the screen has loaded and rendered (docs/ARCHITECTURE.md#data-loading).
 * It never waits for them: the screen shows its own loading state and takes the answers from the
 * query cache under the same keys. Nothing is asked without a stored session (the guards send
 * the visitor to sign in), nor for another role's screen (the guards send the user home).
 */
function prefetching(start: Start) {
  return (args: LoaderFunctionArgs) => {
    const stored = storage.getUser();
    const user = stored === 'corrupt' ? null : stored;
    const [section] = new URL(args.request.url).pathname.split('/').filter(Boolean);
    const othersScreen = ROLES.some((role) => role === section && role !== user?.role);
    if (user && !othersScreen) {
      start((options) => void queryClient.prefetchQuery(options), user, args);
    }
    return null;
  };
}

const searchOf = ({ request }: LoaderFunctionArgs) => new URL(request.url).searchParams;

/** Each screen's loader, by the name router.tsx gives the screen. */
export const loaders = {
  adminDashboard: prefetching((fetch) => {
    fetch(dashboardActivityQuery());
    fetch(shiftSummaryQuery());
    for (const role of ['user', 'superagent', 'agent'] as const) fetch(roleCountQuery(role));
    fetch(recentTransactionsQuery());
  }),
  superagentDashboard: prefetching((fetch) => {
    fetch(dashboardActivityQuery());
    fetch(shiftSummaryQuery());
    fetch(balanceQuery());
    fetch(scopedUsersQuery('agent'));
    fetch(scopedUsersQuery('user'));
    fetch(recentTransactionsQuery());
  }),
  agentDashboard: prefetching((fetch) => {
    fetch(dashboardActivityQuery());
    fetch(shiftSummaryQuery());
    fetch(balanceQuery());
    fetch(scopedUsersQuery('user'));
    fetch(recentTransactionsQuery());
  }),
  userDashboard: prefetching((fetch) => {
    fetch(dashboardActivityQuery());
    fetch(balanceQuery());
    fetch(moneyFlowQuery('sent'));
    fetch(moneyFlowQuery('received'));
    fetch(recentTransactionsQuery());
  }),
  profile: prefetching((fetch, user) => fetch(profileQuery(user.id))),
  transactions: prefetching((fetch) => {
    fetch(balanceQuery());
    fetch(transactionsQuery({ page: 1, type: 'all', search: '' }));
  }),
  adminSalesHistory: prefetching((fetch) => fetch(adminSalesQuery({ owner: null, page: 1 }))),
  superagentSalesHistory: prefetching((fetch, user) =>
    fetch(superagentSalesQuery({ superagentId: user.id, agentId: null, userId: null, page: 1 })),
  ),
  agentSalesHistory: prefetching((fetch, user) => fetch(agentSalesQuery({ agentId: user.id, userId: null, page: 1 }))),
  userSalesHistory: prefetching((fetch, user) => fetch(userSalesQuery({ userId: user.id, page: 1 }))),
  statement: prefetching((fetch, _user, args) => {
    const userId = Number(args.params.userId);
    if (Number.isInteger(userId) && userId > 0) fetch(statementQuery(statementQueryAt(userId, searchOf(args))));
  }),
  reports: prefetching((fetch, _user, args) => {
    const query = downlineQueryAt(searchOf(args));
    fetch(downlineQuery(query));
    fetch(activityQuery({ from: query.from, to: query.to, timeZone: query.timeZone }));
  }),
  userDayClose: prefetching((fetch, _user, args) => fetch(dayCloseQuery(dayCloseQueryAt(searchOf(args))))),
  userShift: prefetching((fetch) => {
    fetch(currentShiftQuery());
    fetch(shiftsQuery({ ...NO_SHIFTS_FILTER, status: 'closed' }, 1));
  }),
  shifts: prefetching((fetch, _user, args) => fetch(shiftsQuery(shiftsFilterAt(searchOf(args)), 1))),
  shiftReport: prefetching((fetch, _user, args) => {
    const shiftId = Number(args.params.shiftId);
    if (Number.isInteger(shiftId) && shiftId > 0) fetch(shiftReportQuery(shiftId));
  }),
  numberGamePlay: prefetching((fetch) => {
    fetch(playGameQuery(queryClient));
    fetch(effectiveWinnersQuery());
    fetch(balanceQuery());
  }),
};

export type ScreenLoader = keyof typeof loaders;
