import { Globe2, Lock } from 'lucide-react';
import { formatBps } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { useEffectiveWinners } from '../api/get-effective-winners.ts';
import { activeTotalBps } from './winner-total.tsx';

/**
 * A player without active settings of their own is paid by the global scheme: shown here as it
 * is, read-only (only the admin changes it), with its total, so the player sees what their games
 * pay. Nothing is shown once their own settings are the ones that pay.
 */
export function EffectiveScheme() {
  const effective = useEffectiveWinners();
  if (effective.isPending) return <Spinner label="Loading the scheme your games pay..." />;
  if (effective.isError)
    return <ErrorPanel message="Failed to fetch winner settings" onRetry={() => void effective.refetch()} />;
  const { source, winners } = effective.data;
  if (source === 'own') return null;
  if (source === 'none' || winners.length === 0)
    return (
      <Card>
        <p role="status" data-testid="effective-none" className="text-sm font-semibold text-rose-700">
          {MESSAGES.noWinnerSettings} Your games cannot start until you add your own settings or the admin adds global
          ones.
        </p>
      </Card>
    );
  const total = activeTotalBps(winners);
  const sorted = [...winners].sort((a, b) => a.position - b.position);
  return (
    <section data-testid="effective-scheme" aria-labelledby="effective-scheme-title">
      <Card
        title={
          <span id="effective-scheme-title" className="inline-flex items-center gap-2">
            <Globe2 className="h-5 w-5 text-indigo-500" aria-hidden="true" />
            Your games pay by the global settings
          </span>
        }
        actions={
          <span className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-600">
            <Lock className="h-3.5 w-3.5" aria-hidden="true" />
            Read-only
          </span>
        }
      >
        <p className="mb-4 text-sm text-slate-500">
          You have no active settings of your own, so every game you open takes these prize positions. Add your own
          below to pay differently.
        </p>
        <ol className="divide-y divide-slate-100 overflow-hidden rounded-xl ring-1 ring-slate-200">
          {sorted.map((winner) => (
            <li
              key={winner.id}
              data-testid="effective-row"
              className="flex items-center justify-between gap-3 px-4 py-2.5 text-sm"
            >
              <span className="flex min-w-0 items-center gap-3">
                <span className="w-8 shrink-0 font-semibold text-slate-500">#{winner.position}</span>
                <span className="truncate font-medium text-slate-900">{winner.name}</span>
              </span>
              <span className="font-semibold tabular-nums text-slate-900">{winner.percent}%</span>
            </li>
          ))}
          <li className="flex items-center justify-between gap-3 bg-slate-50 px-4 py-2.5 text-sm font-semibold">
            <span>Total</span>
            <span
              data-testid="effective-total"
              className={`tabular-nums ${total > 10_000 ? 'text-rose-700' : 'text-slate-900'}`}
            >
              {formatBps(total)}%
            </span>
          </li>
        </ol>
        {total > 10_000 && (
          <p role="alert" className="mt-3 text-sm font-semibold text-rose-700">
            The active winner settings add up to more than 100% ({formatBps(total)}%): no game can start until the admin
            corrects them.
          </p>
        )}
      </Card>
    </section>
  );
}
