import {
  ArrowLeftRight,
  CalendarCheck,
  ChartNoAxesColumn,
  Clock,
  Dices,
  FileClock,
  HandCoins,
  Hourglass,
  History,
  LayoutDashboard,
  ListOrdered,
  Receipt,
  Shield,
  Trophy,
  User,
  UserCog,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { Role } from '@lot/domain/roles';

export type MenuItem = { to: string; label: string; icon: LucideIcon };

/** docs/product/screens.md#sidebar: each role's menu; every role also gets Profile and Transactions. */
const ROLE_MENUS: Record<Role, MenuItem[]> = {
  admin: [
    { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/admin/users', label: 'Users', icon: Users },
    { to: '/admin/superagents', label: 'Super Agents', icon: Shield },
    { to: '/admin/agents', label: 'Agents', icon: UserCog },
    { to: '/admin/transactions', label: 'All Transactions', icon: Receipt },
    { to: '/admin/winners', label: 'Winner Configurations', icon: Trophy },
    { to: '/admin/sales-history', label: 'Sales History', icon: History },
    { to: '/admin/unpaid-prizes', label: 'Unpaid Prizes', icon: Hourglass },
    { to: '/admin/reports', label: 'Reports', icon: ChartNoAxesColumn },
    { to: '/admin/audit', label: 'Audit Trail', icon: FileClock },
    { to: '/admin/shifts', label: 'Shifts', icon: Clock },
  ],
  superagent: [
    { to: '/superagent/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/superagent/agents', label: 'Agents', icon: UserCog },
    { to: '/superagent/users', label: 'Users', icon: Users },
    { to: '/superagent/sales-history', label: 'Sales History', icon: History },
    { to: '/superagent/unpaid-prizes', label: 'Unpaid Prizes', icon: Hourglass },
    { to: '/superagent/reports', label: 'Reports', icon: ChartNoAxesColumn },
    { to: '/superagent/audit', label: 'Audit Trail', icon: FileClock },
    { to: '/superagent/shifts', label: 'Shifts', icon: Clock },
  ],
  agent: [
    { to: '/agent/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/agent/users', label: 'Users', icon: Users },
    { to: '/agent/sales-history', label: 'Sales History', icon: History },
    { to: '/agent/unpaid-prizes', label: 'Unpaid Prizes', icon: Hourglass },
    { to: '/agent/reports', label: 'Reports', icon: ChartNoAxesColumn },
    { to: '/agent/audit', label: 'Audit Trail', icon: FileClock },
    { to: '/agent/shifts', label: 'Shifts', icon: Clock },
  ],
  user: [
    { to: '/user/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/user/number-game', label: 'Lottery Game', icon: Dices },
    { to: '/user/pay-prizes', label: 'Pay Prizes', icon: HandCoins },
    { to: '/user/unpaid-prizes', label: 'Unpaid Prizes', icon: Hourglass },
    { to: '/user/winner-settings', label: 'Winner Settings', icon: ListOrdered },
    { to: '/sales-history', label: 'Game History', icon: History },
    { to: '/user/day-close', label: 'Balance Statement', icon: CalendarCheck },
    { to: '/user/shift', label: 'Shift', icon: Clock },
  ],
};

const COMMON: MenuItem[] = [
  { to: '/profile', label: 'Profile', icon: User },
  { to: '/transactions', label: 'Transactions', icon: ArrowLeftRight },
];

export function menuFor(role: Role): MenuItem[] {
  return [...ROLE_MENUS[role], ...COMMON];
}

/** Each screen's title (docs/product/screens.md#header), by the path's pattern; the first match wins. */
const TITLES: [RegExp, string][] = [
  [/\/dashboard$/, 'Dashboard'],
  [/\/superagents$/, 'Super Agents'],
  [/\/agents$/, 'Agents'],
  [/\/users$/, 'Users'],
  [/\/transactions$/, 'Transactions'],
  [/^\/profile$/, 'Profile'],
  [/\/day-close$/, 'Balance Statement'],
  [/^\/user\/pay-prizes$/, 'Pay Prizes'],
  [/\/unpaid-prizes$/, 'Unpaid Prizes'],
  [/^\/admin\/winners$/, 'Winner Configurations'],
  [/^\/user\/winner-settings$/, 'Winner Settings'],
  [/^\/user\/number-game\/slips\/[^/]+$/, 'Slips'],
  [/^\/user\/number-game$/, 'Lottery Game'],
  [/^\/sales-history$/, 'Game History'],
  [/\/sales-history$/, 'Sales History'],
  [/^\/game-winners\/[^/]+$/, 'Game Winners'],
  [/^\/statements\/[^/]+$/, 'Statement'],
  [/\/reports$/, 'Reports'],
  [/\/audit$/, 'Audit Trail'],
  [/^\/user\/shift$/, 'Shift'],
  [/\/shifts$/, 'Shifts'],
  [/^\/shifts\/[^/]+$/, 'Shift Report'],
];

/** The header title, derived from the path; the browser tab shows it too (`{title} · LOT`). */
export function titleFor(path: string): string {
  return TITLES.find(([pattern]) => pattern.test(path))?.[1] ?? 'LOT System';
}
