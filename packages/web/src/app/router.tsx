import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { Role } from '@lot/domain/roles';
import { RequireAuth, RequireRole, RoleHome } from './guards.tsx';
import type { ScreenLoader } from './route-loaders.ts';

/** Each screen is its own chunk: the first screen ships only what it needs. */
const lazy = (load: () => Promise<{ default: () => ReactNode }>) => async () => ({ Component: (await load()).default });

const screens = {
  login: () => import('./routes/login.tsx').then((m) => ({ default: m.LoginRoute })),
  debug: () => import('./routes/debug.tsx').then((m) => ({ default: m.DebugRoute })),
  shell: () => import('./shell/app-shell.tsx').then((m) => ({ default: m.AppShell })),
  profile: () => import('./routes/profile.tsx').then((m) => ({ default: m.ProfileRoute })),
  transactions: () => import('./routes/transactions.tsx').then((m) => ({ default: m.TransactionsRoute })),
  adminWinners: () => import('./routes/admin-winners.tsx').then((m) => ({ default: m.AdminWinnersRoute })),
  adminSalesHistory: () =>
    import('./routes/admin-sales-history.tsx').then((m) => ({ default: m.AdminSalesHistoryRoute })),
  adminDashboard: () => import('./routes/admin-dashboard.tsx').then((m) => ({ default: m.AdminDashboardRoute })),
  adminUsers: () => import('./routes/admin-users.tsx').then((m) => ({ default: m.AdminUsersRoute })),
  adminSuperagents: () => import('./routes/admin-superagents.tsx').then((m) => ({ default: m.AdminSuperagentsRoute })),
  adminAgents: () => import('./routes/admin-agents.tsx').then((m) => ({ default: m.AdminAgentsRoute })),
  superagentDashboard: () =>
    import('./routes/superagent-dashboard.tsx').then((m) => ({ default: m.SuperagentDashboardRoute })),
  superagentAgents: () => import('./routes/superagent-agents.tsx').then((m) => ({ default: m.SuperagentAgentsRoute })),
  superagentUsers: () => import('./routes/superagent-users.tsx').then((m) => ({ default: m.SuperagentUsersRoute })),
  agentDashboard: () => import('./routes/agent-dashboard.tsx').then((m) => ({ default: m.AgentDashboardRoute })),
  agentUsers: () => import('./routes/agent-users.tsx').then((m) => ({ default: m.AgentUsersRoute })),
  numberGamePlay: () => import('./routes/number-game-play.tsx').then((m) => ({ default: m.NumberGamePlayRoute })),
  numberGameSlips: () => import('./routes/number-game-slips.tsx').then((m) => ({ default: m.NumberGameSlipsRoute })),
  superagentSalesHistory: () =>
    import('./routes/superagent-sales-history.tsx').then((m) => ({ default: m.SuperagentSalesHistoryRoute })),
  agentSalesHistory: () =>
    import('./routes/agent-sales-history.tsx').then((m) => ({ default: m.AgentSalesHistoryRoute })),
  userDashboard: () => import('./routes/user-dashboard.tsx').then((m) => ({ default: m.UserDashboardRoute })),
  userWinnerSettings: () =>
    import('./routes/user-winner-settings.tsx').then((m) => ({ default: m.UserWinnerSettingsRoute })),
  numberGame: () => import('./routes/number-game.tsx').then((m) => ({ default: m.NumberGameRoute })),
  userSalesHistory: () => import('./routes/user-sales-history.tsx').then((m) => ({ default: m.UserSalesHistoryRoute })),
  userDayClose: () => import('./routes/user-day-close.tsx').then((m) => ({ default: m.UserDayCloseRoute })),
  gameWinners: () => import('./routes/game-winners.tsx').then((m) => ({ default: m.GameWinnersRoute })),
  verify: () => import('./routes/verify.tsx').then((m) => ({ default: m.VerifyRoute })),
  display: () => import('./routes/display.tsx').then((m) => ({ default: m.DisplayRoute })),
  statement: () => import('./routes/statement.tsx').then((m) => ({ default: m.StatementRoute })),
  reports: () => import('./routes/reports.tsx').then((m) => ({ default: m.ReportsRoute })),
  twoFactorSetup: () => import('./routes/two-factor-setup.tsx').then((m) => ({ default: m.TwoFactorSetupRoute })),
  audit: () => import('./routes/audit.tsx').then((m) => ({ default: m.AuditRoute })),
  payPrizes: () => import('./routes/pay-prizes.tsx').then((m) => ({ default: m.PayPrizesRoute })),
  unpaidPrizes: () => import('./routes/unpaid-prizes.tsx').then((m) => ({ default: m.UnpaidPrizesRoute })),
  userShift: () => import('./routes/user-shift.tsx').then((m) => ({ default: m.UserShiftRoute })),
  shifts: () => import('./routes/shifts.tsx').then((m) => ({ default: m.ShiftsRoute })),
  shiftReport: () => import('./routes/shift-report.tsx').then((m) => ({ default: m.ShiftReportRoute })),
};

/**
 * A screen's loader (docs/ARCHITECTURE.md#data-loading). The loaders and the queries they start
 * are one chunk of their own, fetched beside the screen's chunk, so the first screen (the sign-in
 * page) does not carry them.
 */
const loader = (name: ScreenLoader) => async (args: LoaderFunctionArgs) =>
  (await import('./route-loaders.ts')).loaders[name](args);

/** A role's route group: the bare path goes to its dashboard (docs/product/screens.md#route-table). */
function roleGroup(role: Role, children: RouteObject[]): RouteObject {
  return {
    path: role,
    element: (
      <RequireRole roles={[role]}>
        <Outlet />
      </RequireRole>
    ),
    children: [{ index: true, element: <Navigate to={`/${role}/dashboard`} replace /> }, ...children],
  };
}

/**
 * The first screen's chunk (and its loader) are fetched before anything renders: the root route
 * says what shows meanwhile — nothing, as before, now said on purpose (without it React Router 7
 * warns on every page load that no `HydrateFallback` was provided).
 */
const FirstScreenLoading = () => null;

export const routes: RouteObject[] = [
  {
    HydrateFallback: FirstScreenLoading,
    children: [
      { path: '/login', lazy: lazy(screens.login) },
      { path: '/debug', lazy: lazy(screens.debug) },
      // A game's public proof: anyone with the code, signed in or not.
      { path: '/verify/:code', lazy: lazy(screens.verify) },
      // A game live on a screen facing the customers: anyone with the code, signed in or not.
      { path: '/display/:code', lazy: lazy(screens.display) },
      {
        path: '/',
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <RoleHome /> },
          // The set-up a role's policy requires: outside the shell, since nothing else is open until it is done.
          { path: 'two-factor-setup', lazy: lazy(screens.twoFactorSetup) },
          // The game fills the screen (a shop's display), outside the shell.
          {
            path: 'user/number-game/play',
            element: (
              <RequireRole roles={['user']}>
                <Outlet />
              </RequireRole>
            ),
            children: [
              {
                index: true,
                lazy: lazy(screens.numberGamePlay),
                loader: loader('numberGamePlay'),
              },
            ],
          },
          {
            lazy: lazy(screens.shell),
            children: [
              { path: 'profile', lazy: lazy(screens.profile), loader: loader('profile') },
              { path: 'transactions', lazy: lazy(screens.transactions), loader: loader('transactions') },
              { path: 'statements/:userId', lazy: lazy(screens.statement), loader: loader('statement') },
              { path: 'shifts/:shiftId', lazy: lazy(screens.shiftReport), loader: loader('shiftReport') },
              roleGroup('admin', [
                { path: 'dashboard', lazy: lazy(screens.adminDashboard), loader: loader('adminDashboard') },
                { path: 'users', lazy: lazy(screens.adminUsers) },
                { path: 'superagents', lazy: lazy(screens.adminSuperagents) },
                { path: 'agents', lazy: lazy(screens.adminAgents) },
                { path: 'transactions', lazy: lazy(screens.transactions), loader: loader('transactions') },
                { path: 'winners', lazy: lazy(screens.adminWinners) },
                { path: 'sales-history', lazy: lazy(screens.adminSalesHistory), loader: loader('adminSalesHistory') },
                { path: 'reports', lazy: lazy(screens.reports), loader: loader('reports') },
                { path: 'unpaid-prizes', lazy: lazy(screens.unpaidPrizes) },
                { path: 'audit', lazy: lazy(screens.audit) },
                { path: 'shifts', lazy: lazy(screens.shifts), loader: loader('shifts') },
              ]),
              roleGroup('superagent', [
                { path: 'dashboard', lazy: lazy(screens.superagentDashboard), loader: loader('superagentDashboard') },
                { path: 'agents', lazy: lazy(screens.superagentAgents) },
                { path: 'users', lazy: lazy(screens.superagentUsers) },
                {
                  path: 'sales-history',
                  lazy: lazy(screens.superagentSalesHistory),
                  loader: loader('superagentSalesHistory'),
                },
                { path: 'reports', lazy: lazy(screens.reports), loader: loader('reports') },
                { path: 'unpaid-prizes', lazy: lazy(screens.unpaidPrizes) },
                { path: 'audit', lazy: lazy(screens.audit) },
                { path: 'shifts', lazy: lazy(screens.shifts), loader: loader('shifts') },
              ]),
              roleGroup('agent', [
                { path: 'dashboard', lazy: lazy(screens.agentDashboard), loader: loader('agentDashboard') },
                { path: 'users', lazy: lazy(screens.agentUsers) },
                {
                  path: 'sales-history',
                  lazy: lazy(screens.agentSalesHistory),
                  loader: loader('agentSalesHistory'),
                },
                { path: 'reports', lazy: lazy(screens.reports), loader: loader('reports') },
                { path: 'unpaid-prizes', lazy: lazy(screens.unpaidPrizes) },
                { path: 'audit', lazy: lazy(screens.audit) },
                { path: 'shifts', lazy: lazy(screens.shifts), loader: loader('shifts') },
              ]),
              roleGroup('user', [
                {
                  path: 'dashboard',
                  lazy: lazy(screens.userDashboard),
                  loader: loader('userDashboard'),
                },
                {
                  path: 'winner-settings',
                  lazy: lazy(screens.userWinnerSettings),
                },
                {
                  path: 'number-game',
                  lazy: lazy(screens.numberGame),
                },
                { path: 'day-close', lazy: lazy(screens.userDayClose), loader: loader('userDayClose') },
                { path: 'pay-prizes', lazy: lazy(screens.payPrizes) },
                { path: 'unpaid-prizes', lazy: lazy(screens.unpaidPrizes) },
                { path: 'shift', lazy: lazy(screens.userShift), loader: loader('userShift') },
                { path: 'number-game/slips/:gameId', lazy: lazy(screens.numberGameSlips) },
              ]),
              {
                element: (
                  <RequireRole roles={['user']}>
                    <Outlet />
                  </RequireRole>
                ),
                children: [
                  {
                    path: 'sales-history',
                    lazy: lazy(screens.userSalesHistory),
                    loader: loader('userSalesHistory'),
                  },
                  {
                    path: 'game-winners/:id',
                    lazy: lazy(screens.gameWinners),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The app's router. Starting it reads the URL, the history state and session storage and begins
 * fetching the first screen's chunks: main.tsx does it in a task of its own, not while the
 * bundle is evaluated.
 */
export const createAppRouter = () => createBrowserRouter(routes);
