import { Hourglass } from 'lucide-react';
import { useSecondsLeft, type BeaconWait } from '../../lib/game/beacon-wait.ts';
import type { GameTheme } from '../../lib/game/game-theme.ts';

export const waitTitle = (round: number) => `Waiting for public randomness (round ${round})…`;
export const BEACON_NOT_ANSWERING = 'The public randomness beacon is not answering yet: retrying…';

/** What the wait is at now: the seconds to R, R due, R late, or the last ask failed. */
export function waitDetail(wait: BeaconWait, seconds: number | null): string {
  if (wait.error) return `${wait.error.replace(/\.$/, '')}: retrying…`;
  if (wait.unreachable) return BEACON_NOT_ANSWERING;
  if (seconds === null) return '';
  return seconds > 0 ? `Expected in ${seconds} s` : 'Due now: the draw follows as soon as it arrives…';
}

const SIZES = {
  play: {
    box: 'gap-3 rounded-2xl px-4 py-3',
    icon: 'h-7 w-7',
    title: 'text-lg font-bold sm:text-xl',
    seconds: 'text-4xl',
    detail: 'text-base font-semibold',
    note: 'text-sm',
  },
  room: {
    box: 'gap-4 rounded-3xl px-5 py-4 sm:px-6 sm:py-5 2xl:gap-6 2xl:px-8 2xl:py-6',
    icon: 'h-10 w-10 2xl:h-14 2xl:w-14',
    title: 'text-2xl font-black sm:text-3xl 2xl:text-5xl',
    seconds: 'text-6xl sm:text-7xl 2xl:text-9xl',
    detail: 'text-xl font-bold sm:text-2xl 2xl:text-4xl',
    note: 'text-base sm:text-lg 2xl:text-2xl',
  },
} as const;

/**
 * A frozen LOT-DRAW-2 game waiting for its drand round: the round, a live countdown to when it is
 * due (large, tabular, so the seconds do not shift the line), then whether it is late. `size`:
 * the play screen's side panel, or the customer display read across a room. The title is a
 * status (read out once); the ticking seconds are not announced.
 */
export function BeaconWaitView({
  wait,
  theme,
  size,
  note,
}: {
  wait: BeaconWait;
  theme: GameTheme;
  size: 'play' | 'room';
  note: string;
}) {
  const seconds = useSecondsLeft(wait.dueAt);
  const s = SIZES[size];
  const counting = !wait.error && !wait.unreachable && seconds !== null && seconds > 0;
  return (
    <section
      data-testid="beacon-wait"
      data-round={wait.round}
      data-state={wait.error ? 'error' : wait.unreachable ? 'unreachable' : counting ? 'counting' : 'due'}
      className={`flex items-start ring-4 ring-yellow-300/80 ${s.box} ${theme.panel}`}
    >
      <Hourglass className={`mt-1 shrink-0 motion-safe:animate-pulse ${s.icon} ${theme.accent}`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p role="status" className={`${s.title} break-words`}>
          {waitTitle(wait.round)}
        </p>
        <p data-testid="beacon-wait-detail" className={`mt-1 flex flex-wrap items-baseline gap-x-3 ${s.detail}`}>
          {counting && (
            <span
              data-testid="beacon-countdown"
              className={`leading-none font-black tabular-nums ${s.seconds} ${theme.accent}`}
            >
              {seconds}
            </span>
          )}
          <span className={wait.error || wait.unreachable ? '' : theme.muted}>
            {counting ? `second${seconds === 1 ? '' : 's'} to go` : waitDetail(wait, seconds)}
          </span>
        </p>
        <p className={`mt-2 ${s.note} ${theme.muted}`}>{note}</p>
      </div>
    </section>
  );
}
