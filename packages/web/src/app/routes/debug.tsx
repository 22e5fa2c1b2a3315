import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { API_BASE } from '../../lib/config.ts';
import { useAuth } from '../../lib/auth.tsx';
import { storage } from '../../lib/storage.ts';

/** Spec route /debug: environment, API base, whether a token exists, the stored user. */
export function DebugRoute() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const stored = localStorage.getItem('user');
  const pretty = (() => {
    try {
      return stored ? JSON.stringify(JSON.parse(stored), null, 2) : 'none';
    } catch {
      return stored ?? 'none';
    }
  })();
  const rows: [string, string][] = [
    ['Environment', import.meta.env.MODE],
    ['API base', API_BASE || `${window.location.origin} (same origin)`],
    ['Token', storage.getToken() ? 'present' : 'none'],
  ];
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-bold text-slate-900">Debug</h1>
      <dl className="mt-6 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-4 py-3 text-sm">
            <dt className="shrink-0 font-medium text-slate-600">{label}</dt>
            <dd className="min-w-0 break-words text-right font-mono text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <h2 className="mt-6 text-sm font-medium text-slate-600">Stored user</h2>
      <pre className="mt-2 overflow-x-auto rounded-xl bg-slate-900 p-4 text-xs text-slate-100">{pretty}</pre>
      <div className="mt-6 flex gap-3">
        <Link
          to="/"
          className="inline-flex items-center rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
        >
          Go Home
        </Link>
        <Button
          variant="danger"
          onClick={() => {
            localStorage.clear();
            logout();
            navigate('/login', { replace: true });
          }}
        >
          Clear Storage &amp; Logout
        </Button>
      </div>
    </main>
  );
}
