import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { dashboardPath, ROLES, type Role } from '@lot/domain/roles';
import { useAuth } from '../lib/auth.tsx';

function Loading() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-slate-500">
      Loading...
    </div>
  );
}

/** Where a session goes while its role requires two-factor sign-in and it is not set up (decision 028). */
export const TWO_FACTOR_SETUP_PATH = '/two-factor-setup';

/**
 * Auth guard: visitors without a session go to /login; a session that must set up two-factor
 * sign-in first goes to its set-up, and nowhere else until it is done.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, twoFactorSetupRequired } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <Loading />;
  if (status !== 'authenticated') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (twoFactorSetupRequired && location.pathname !== TWO_FACTOR_SETUP_PATH)
    return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  return children;
}

/** Role guard: a wrong role goes to its own dashboard; an unknown role to /login. */
export function RequireRole({ roles, children }: { roles: Role[]; children: ReactNode }) {
  const { user } = useAuth();
  if (!user || !(ROLES as readonly string[]).includes(user.role)) return <Navigate to="/login" replace />;
  if (!roles.includes(user.role)) return <Navigate to={dashboardPath(user.role)} replace />;
  return children;
}

/** The root and bare role paths: straight to the role's dashboard. */
export function RoleHome() {
  const { user } = useAuth();
  return <Navigate to={user ? dashboardPath(user.role) : '/login'} replace />;
}
