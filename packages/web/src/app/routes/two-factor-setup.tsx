import { Navigate, useNavigate } from 'react-router';
import { LogOut, ShieldCheck } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { dashboardPath } from '@lot/domain/roles';
import { Button } from '../../components/ui/button.tsx';
import { useAuth, useCurrentUser } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { TwoFactorSetup } from '../../features/two-factor/components/two-factor-setup.tsx';

/**
 * The set-up a role's policy requires (decision 028): after sign-in a user of such a role without
 * two-factor sign-in comes here, and can do nothing else but sign out until it is on.
 */
export function TwoFactorSetupRoute() {
  useDocumentTitle('Set up two-factor sign-in');
  const user = useCurrentUser();
  const { twoFactorSetupRequired, twoFactorSetupDone, logout } = useAuth();
  const navigate = useNavigate();

  if (!twoFactorSetupRequired) return <Navigate to={dashboardPath(user.role)} replace />;

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 sm:px-6">
        <span className="text-xl font-black tracking-[0.3em] text-indigo-600">LOT</span>
        <Button
          variant="ghost"
          onClick={() => {
            logout();
            navigate('/login', { replace: true });
          }}
        >
          <LogOut className="h-4 w-4" aria-hidden="true" />
          Logout
        </Button>
      </header>
      <main className="mx-auto max-w-xl p-4 sm:p-8">
        <div className="mb-6 flex items-start gap-3">
          <span className="rounded-lg bg-indigo-50 p-2 text-indigo-600">
            <ShieldCheck className="h-6 w-6" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">Set up two-factor sign-in</h1>
            <p role="status" className="mt-1 text-sm text-slate-600">
              {MESSAGES.twoFactorEnrolmentRequired}
            </p>
          </div>
        </div>
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <TwoFactorSetup
            onDone={() => {
              twoFactorSetupDone();
              navigate(dashboardPath(user.role), { replace: true });
            }}
          />
        </section>
      </main>
    </div>
  );
}
