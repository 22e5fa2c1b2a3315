import type { ReactNode } from 'react';
import { ArrowLeft, SearchX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { MESSAGES } from '@lot/domain/messages';
import { Card } from '../../../components/ui/panels.tsx';

/** The slips page's frame and notices (slips-page.tsx). */

function BackToGame() {
  return (
    <Link
      to="/user/number-game/play"
      className="inline-flex items-center gap-1.5 text-sm font-semibold text-indigo-600 hover:text-indigo-700"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back to the game
    </Link>
  );
}

/**
 * Without PUBLIC_URL the slips link to the address this page was opened on; when that is local
 * (localhost, a private or link-local address) a customer's phone cannot open it
 * (docs/product/runtime-and-security.md#public-url).
 */
export function UnreachableLinks({ base }: { base: string }) {
  return (
    <div
      data-testid="public-url-warning"
      className="flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-300"
    >
      <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">Customers’ phones cannot open these QR codes</p>
        <p>
          The slips link to <span className="font-mono break-all">{base}</span>, a local address a customer’s phone
          cannot reach. Ask whoever runs the LOT server to set{' '}
          <span className="font-mono font-semibold">PUBLIC_URL</span> to the address customers use (such as
          https://lot.example.com) and restart it.
        </p>
      </div>
    </div>
  );
}

export function NotFound() {
  return (
    <Card>
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <SearchX className="h-10 w-10 text-slate-300" aria-hidden="true" />
        <h2 className="text-xl font-semibold text-slate-900">{MESSAGES.gameNotFound}</h2>
        <p className="max-w-sm text-sm text-slate-500">There is no game of yours at this address.</p>
      </div>
    </Card>
  );
}

/** The page under its link back to the game. */
export function SlipsFrame({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-6">
      <BackToGame />
      {children}
    </div>
  );
}
