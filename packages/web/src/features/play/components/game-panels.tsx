import type { ReactNode } from 'react';
import { Loader2, Printer } from 'lucide-react';
import { formatBps, prizeFor, type Participant } from '@lot/domain/game';
import { decimalToCents, formatMoney, type Cents } from '@lot/domain/money';
import type { GameDraw } from '@lot/domain/schemas/games';
import type { GameTheme } from '../../../lib/game/game-theme.ts';
import { NamesToggle, shownName, shownPhone, type NamesView } from '../../../components/game/names-privacy.tsx';

/** A prize position as the screen shows it: the game's snapshot once open, the live settings before. */
export type PrizeLine = { position: number; name: string; percentBps: number };

export function Panel({
  title,
  theme,
  children,
  testId,
  action,
}: {
  title: ReactNode;
  theme: GameTheme;
  children: ReactNode;
  testId?: string;
  /** A control beside the title. */
  action?: ReactNode;
}) {
  return (
    <section data-testid={testId} className={`rounded-2xl p-4 sm:p-5 ${theme.panel}`}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-bold tracking-wide uppercase sm:text-xl">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/**
 * Before the draw: who chose which number (masked unless `names.reveal`), and (`children`) what is
 * to be said about the entries. With `onPrint` each row prints its customer's slip again (a COPY
 * once printed before; the server counts), `printing` the number whose slip is on its way.
 */
export function SelectedNumbersPanel({
  selected,
  theme,
  names,
  children,
  onPrint,
  printing = null,
}: {
  selected: Participant[];
  theme: GameTheme;
  names: NamesView;
  children?: ReactNode;
  onPrint?: (number: number) => void;
  printing?: number | null;
}) {
  const sorted = [...selected].sort((a, b) => a.number - b.number);
  return (
    <Panel
      title={`Selected Numbers (${selected.length})`}
      theme={theme}
      testId="selected-panel"
      action={selected.length > 0 && <NamesToggle names={names} className={theme.secondary} />}
    >
      {children && <div className="mb-3">{children}</div>}
      {sorted.length === 0 ? (
        <p className={theme.muted}>Tap a number to add a participant.</p>
      ) : (
        // It scrolls on a wide screen: focusable, so a keyboard can scroll it too.
        <ul
          tabIndex={0}
          aria-label="Selected numbers"
          className="-m-1 space-y-2 rounded-lg p-1 focus-visible:outline-4 focus-visible:outline-yellow-300 lg:max-h-[45vh] lg:overflow-y-auto"
        >
          {sorted.map((p) => (
            <li key={p.number} className="flex items-center gap-3" data-testid="selected-row">
              <span
                className={`flex h-10 w-12 shrink-0 items-center justify-center rounded-lg text-xl font-black ${theme.tileSelected}`}
              >
                {p.number}
              </span>
              <span className="min-w-0 flex-1">
                <span data-testid="selected-name" className="block text-lg font-semibold break-words">
                  {shownName(p.name, names.reveal)}
                </span>
                <span className={`block truncate text-sm ${theme.muted}`}>
                  {shownPhone(p.phoneNumber, names.reveal)}
                </span>
              </span>
              {onPrint && (
                <button
                  type="button"
                  aria-label={`Print slip ${p.number}`}
                  title="Print this customer's slip (COPY if printed before)"
                  disabled={printing !== null}
                  onClick={() => onPrint(p.number)}
                  className={`shrink-0 rounded-lg p-2 focus-visible:outline-4 focus-visible:outline-yellow-300 disabled:opacity-50 ${theme.secondary}`}
                >
                  {printing === p.number ? (
                    <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
                  ) : (
                    <Printer className="h-5 w-5" aria-hidden="true" />
                  )}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** Once the draw has started: each prize position, its drawn number and who (if anyone) won it, as the server drew it. */
export function WinnersPanel({
  prizes,
  draws,
  theme,
  names,
}: {
  prizes: readonly PrizeLine[];
  draws: readonly GameDraw[];
  theme: GameTheme;
  names: NamesView;
}) {
  const byPosition = new Map(draws.map((d) => [d.position, d]));
  return (
    <Panel
      title="Winners"
      theme={theme}
      testId="winners-panel"
      action={draws.some((d) => d.winner) && <NamesToggle names={names} className={theme.secondary} />}
    >
      <ol className="space-y-2">
        {prizes.map((prize) => {
          const draw = byPosition.get(prize.position);
          const winner = draw?.winner ?? null;
          return (
            <li key={prize.position} data-testid="winner-row" className="flex items-center gap-3">
              <span
                className={`flex h-12 w-14 shrink-0 items-center justify-center rounded-lg text-2xl font-black ${
                  draw === undefined ? theme.tile : winner ? theme.tileWinner : theme.tileDrawn
                }`}
              >
                {draw?.number ?? '?'}
              </span>
              <span className="min-w-0 flex-1">
                <span className={`block text-sm font-semibold uppercase ${theme.muted}`}>{prize.name}</span>
                {draw === undefined ? (
                  <span className={`block text-lg ${theme.muted}`}>Not drawn yet</span>
                ) : (
                  <>
                    {/* A long name wraps rather than being cut short on a phone. */}
                    <span data-testid="winner-row-name" className="block text-lg font-bold break-words">
                      {winner ? shownName(winner.name, names.reveal) : 'No winner'}
                    </span>
                    <span className={`block truncate text-sm ${theme.muted}`}>
                      {winner ? shownPhone(winner.phoneNumber, names.reveal) : 'N/A'}
                    </span>
                  </>
                )}
              </span>
              <span
                className={`shrink-0 text-right text-lg font-bold tabular-nums ${winner ? theme.accent : theme.muted}`}
              >
                {winner && draw ? formatMoney(decimalToCents(draw.prizeAmount)) : draw === undefined ? '' : '—'}
              </span>
            </li>
          );
        })}
      </ol>
    </Panel>
  );
}

/** Prize Distribution: the pool (selected × bet) and what each position pays (floored to the cent). */
export function PrizePanel({
  prizes,
  poolCents,
  commissionCents,
  theme,
  status,
}: {
  prizes: readonly PrizeLine[] | null;
  poolCents: Cents;
  /** Known once the game is complete: pool − prizes paid. */
  commissionCents: Cents | null;
  theme: GameTheme;
  status?: ReactNode;
}) {
  return (
    <Panel title="Prize Distribution" theme={theme} testId="prize-panel">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <span className="text-lg font-semibold">Total Pool</span>
        <span data-testid="pool" className={`text-3xl font-black tabular-nums ${theme.accent}`}>
          {formatMoney(poolCents)}
        </span>
      </div>
      {status}
      {prizes && prizes.length > 0 && (
        <ul className="space-y-1.5">
          {prizes.map((prize) => (
            <li key={prize.position} data-testid="prize-row" className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 truncate text-lg">
                {prize.name} <span className={`text-sm ${theme.muted}`}>({formatBps(prize.percentBps)}%)</span>
              </span>
              <span className="text-xl font-bold tabular-nums">
                {formatMoney(prizeFor(poolCents, prize.percentBps))}
              </span>
            </li>
          ))}
        </ul>
      )}
      {commissionCents !== null && (
        <div className="mt-3 flex items-baseline justify-between gap-3 border-t border-current/20 pt-3">
          <span className="text-lg font-semibold">Commission</span>
          <span data-testid="commission" className="text-xl font-bold tabular-nums">
            {formatMoney(commissionCents)}
          </span>
        </div>
      )}
    </Panel>
  );
}
