import type { ReactNode } from 'react';
import { ArrowLeft, SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { gameTitle } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { Card, ErrorPanel, PageHeading, Spinner } from '../../components/ui/panels.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { dateTime } from '../../lib/format.ts';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { useGameClaims } from '../../features/claims/api/get-game-claims.ts';
import { ClaimStatusLine } from '../../features/claims/components/claim-status-line.tsx';
import { useSale } from '../../features/sales-history/api/get-sale.ts';
import { GameSummary } from '../../features/sales-history/components/game-summary.tsx';
import { GameWinners } from '../../features/sales-history/components/game-winners.tsx';
import { SelectedNumbersGrid } from '../../features/sales-history/components/selected-numbers-grid.tsx';

function BackToHistory({ variant = 'link' }: { variant?: 'link' | 'button' }) {
  return (
    <Link
      to="/sales-history"
      className={
        variant === 'button'
          ? 'inline-flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50'
          : 'inline-flex items-center gap-1.5 text-sm font-semibold text-indigo-600 hover:text-indigo-700'
      }
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back to History
    </Link>
  );
}

/** A positive whole number from the address, else null (an address like /game-winners/abc has no game). */
function gameId(param: string | undefined): number | null {
  if (!param || !/^\d{1,15}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && Number.isSafeInteger(id) ? id : null;
}

/** Where a winner's prize claim stands (nothing while loading, or for a prize of zero). */
function WinnerClaim({ claims, winnerId }: { claims: Map<number, PrizeClaim> | undefined; winnerId: number }) {
  const claim = claims?.get(winnerId);
  return claim ? <ClaimStatusLine claim={claim} /> : null;
}

function NotFound() {
  return (
    <Card>
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <SearchX className="h-10 w-10 text-slate-300" aria-hidden="true" />
        <h2 className="text-xl font-semibold text-slate-900">{MESSAGES.gameNotFound}</h2>
        <p className="max-w-sm text-sm text-slate-500">There is no game of yours at this address.</p>
        <BackToHistory variant="button" />
      </div>
    </Card>
  );
}

/**
 * docs/product/screens.md#game-winners (/game-winners/{id}): one of the user's games: its figures, its winners by
 * position and every selected number with the winning ones highlighted. Another user's game is
 * answered 404 by the server and shown as Game Not Found, like a missing one.
 */
export function GameWinnersRoute() {
  const id = gameId(useParams().id);
  const game = useSale(id);
  const claims = useGameClaims(game.data ? id : null);

  if (id === null || (game.isError && game.error instanceof ApiError && [400, 404].includes(game.error.status)))
    return <NotFound />;
  if (game.isError)
    return (
      <ErrorPanel message="Failed to fetch game data" onRetry={() => void game.refetch()}>
        <BackToHistory variant="button" />
      </ErrorPanel>
    );

  let body: ReactNode;
  if (game.isPending) {
    body = <Spinner />;
  } else {
    const data = game.data;
    body = (
      <>
        <PageHeading title={gameTitle(data.number)}>
          Played <time dateTime={data.createdAt}>{dateTime(data.createdAt)}</time>
        </PageHeading>
        <GameSummary game={data} />
        <Card title="Winners">
          <GameWinners
            winners={data.winners}
            claimOf={(winnerId) => <WinnerClaim claims={claims.data} winnerId={winnerId} />}
          />
        </Card>
        <Card title="All Selected Numbers">
          <SelectedNumbersGrid game={data} />
        </Card>
      </>
    );
  }

  return (
    <div className="space-y-6">
      <BackToHistory />
      {body}
    </div>
  );
}
