import { useState } from 'react';
import type { DrawRandomness } from '@lot/domain/schemas/randomness';
import { Button } from '../../../components/ui/button.tsx';
import { Card, Spinner } from '../../../components/ui/panels.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { count, dateTime } from '../../../lib/format.ts';
import { UnpinnedChain } from '../../../lib/game/unpinned-chain.tsx';
import { useDrawRandomness } from '../api/draw-randomness.ts';
import { ServerRandomnessDialog } from './server-randomness-dialog.tsx';

const NEW_GAMES: Record<DrawRandomness['newGames'], string> = {
  'LOT-DRAW-2': 'LOT-DRAW-2 — public randomness',
  'LOT-DRAW-1': 'LOT-DRAW-1 — server randomness only',
  refused: 'refused until the beacon answers',
};

/** The beacon's state in a few words, coloured. */
function BeaconBadge({ data }: { data: DrawRandomness }) {
  const [text, tone] =
    data.mode === 'off'
      ? ['Off', 'bg-slate-100 text-slate-700']
      : data.beaconUp
        ? ['Answering', 'bg-emerald-50 text-emerald-800 ring-emerald-200']
        : ['Cannot be reached', 'bg-rose-50 text-rose-800 ring-rose-200'];
  return (
    <span data-testid="beacon-state" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${tone}`}>
      {text}
    </span>
  );
}

/** What the sticky rule and the permission mean now, in one sentence (decision 061). */
function ruleText(data: DrawRandomness): string {
  if (data.mode === 'off') return 'DRAW_BEACON=off: every game is LOT-DRAW-1.';
  if (data.mode === 'required') return 'DRAW_BEACON=required: while the beacon cannot be reached, no game can open.';
  if (!data.lotDraw2Played)
    return 'DRAW_BEACON=auto, and no LOT-DRAW-2 game has been played yet: while the beacon cannot be reached, games open as LOT-DRAW-1.';
  return data.serverRandomnessAllowed
    ? 'LOT-DRAW-1 is allowed: while the beacon cannot be reached, games open on server randomness only.'
    : 'LOT-DRAW-2 games have been played here, so while the beacon cannot be reached no game opens, unless you allow LOT-DRAW-1.';
}

/**
 * The admin's card on where games get their randomness (docs/product/screens.md#public-randomness-card,
 * decision 061): the beacon, what a game opened now gets, the switch for LOT-DRAW-1 (with DRAW_BEACON=auto,
 * after a confirmation) and the LOT-DRAW-1 games of the last days per shop.
 */
export function DrawRandomnessCard() {
  const query = useDrawRandomness();
  const [confirming, setConfirming] = useState(false);
  const data = query.data;
  return (
    <Card title={<span id="randomness">Public randomness</span>}>
      {query.isPending ? (
        <Spinner />
      ) : query.isError || !data ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(query.error, 'Failed to load the randomness settings')}
        </p>
      ) : (
        <div className="space-y-4" data-testid="draw-randomness">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-slate-500">Beacon</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <BeaconBadge data={data} />
              {data.chain && (
                <span data-testid="beacon-chain" className="min-w-0 text-slate-600">
                  {data.quicknet ? 'drand quicknet' : <UnpinnedChain chainHash={data.chain} />}
                </span>
              )}
            </dd>
            <dt className="text-slate-500">New games now</dt>
            <dd data-testid="new-games" className="font-semibold text-slate-900">
              {NEW_GAMES[data.newGames]}
            </dd>
          </dl>
          <div className="flex flex-col gap-3 rounded-xl bg-slate-50 p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="text-sm text-slate-700">
              <p data-testid="randomness-rule">{ruleText(data)}</p>
              {data.changed && (
                <p className="mt-1 text-xs text-slate-500">
                  {data.serverRandomnessAllowed ? 'Allowed' : 'Stopped'} by {data.changed.by?.fullName ?? 'an admin'} on{' '}
                  {dateTime(data.changed.at)}
                </p>
              )}
            </div>
            {data.mode === 'auto' && data.lotDraw2Played && (
              <Button
                variant={data.serverRandomnessAllowed ? 'secondary' : 'danger'}
                className="shrink-0"
                onClick={() => setConfirming(true)}
              >
                {data.serverRandomnessAllowed ? 'Stop LOT-DRAW-1' : 'Allow LOT-DRAW-1'}
              </Button>
            )}
          </div>
          <ShopCounts rows={data.serverRandomnessByShop} days={data.days} />
          <ServerRandomnessDialog
            open={confirming}
            allow={!data.serverRandomnessAllowed}
            onClose={() => setConfirming(false)}
          />
        </div>
      )}
    </Card>
  );
}

function ShopCounts({ rows, days }: { rows: DrawRandomness['serverRandomnessByShop']; days: number }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">LOT-DRAW-1 games per shop, last {days} days</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500" data-testid="server-randomness-shops-empty">
          None: every game of the last {days} days used public randomness.
        </p>
      ) : (
        <table className="mt-2 w-full text-sm" data-testid="server-randomness-shops">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="py-1 font-medium">Shop</th>
              <th className="py-1 text-right font-medium">Games</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.shop.id}>
                <td className="py-1.5">
                  <span className="font-medium text-slate-900">{row.shop.fullName}</span>{' '}
                  <span className="text-slate-500">@{row.shop.username}</span>
                </td>
                <td className="py-1.5 text-right tabular-nums">{count(row.games)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
