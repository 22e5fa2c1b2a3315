import type { CSSProperties } from 'react';
import { numbersInRange, type Participant } from '@lot/domain/game';
import type { GameTheme } from '../../lib/game/game-theme.ts';
import { shownName } from './names-privacy.tsx';

type TileState = 'free' | 'selected' | 'winner' | 'drawn';

/**
 * On a big display the grid fills the space beside the panels: about sqrt(1.8 × count) columns
 * (the board is roughly 1.8 times wider than tall) and rows that share the height, so 20 numbers
 * are big and 100 still fit one screen. Phones and tablets scroll a fixed 5 or 8 columns.
 */
export function largeColumns(count: number): number {
  const columns = Math.min(14, Math.max(4, Math.ceil(Math.sqrt(count * 1.8))));
  // As few columns as give the same number of rows, so the last row is as full as it can be.
  const rows = Math.ceil(count / columns);
  let fewest = columns;
  while (fewest > 1 && Math.ceil(count / (fewest - 1)) === rows) fewest--;
  return fewest;
}

function numberSize(count: number): string {
  if (count <= 30) return 'text-2xl sm:text-4xl lg:text-6xl 2xl:text-7xl';
  if (count <= 60) return 'text-2xl sm:text-3xl xl:text-4xl 2xl:text-5xl';
  return 'text-xl sm:text-2xl 2xl:text-4xl';
}

/** The gap between tiles on a wide screen (sm:gap-3), in px. */
const LARGE_GAP_PX = 12;
/** What a tile holds under its number on a wide screen: the participant's name (lg:text-lg) and some air. */
const NAME_LINE = '2.25rem';

/**
 * On a wide screen the grid is exactly the board's height however long the side column grows (a
 * size container): its rows share that height, and a number is at most as large as its row leaves
 * room for beside the name under it, so every number stays in view while entries are taken.
 */
function largeNumberCap(rows: number): string {
  return `calc((100cqh - ${(rows - 1) * LARGE_GAP_PX}px) / ${rows} - ${NAME_LINE})`;
}

/**
 * The numbers of the range. A free number asks for its participant; a chosen one opens its details.
 * Once the draw has started the grid only shows what happened: chosen, drawn with a winner, drawn
 * without one.
 */
export function NumberGrid({
  start,
  end,
  selected,
  drawn,
  locked,
  reveal,
  theme,
  onPick,
}: {
  start: number;
  end: number;
  selected: ReadonlyMap<number, Participant>;
  drawn: readonly number[];
  locked: boolean;
  /** The participants' names in full (the operator's Show names), else masked. */
  reveal: boolean;
  theme: GameTheme;
  onPick: (number: number) => void;
}) {
  const numbers = numbersInRange(start, end);
  const columns = largeColumns(numbers.length);
  const drawnSet = new Set(drawn);
  const style: Record<TileState, string> = {
    free: theme.tile,
    selected: theme.tileSelected,
    winner: theme.tileWinner,
    drawn: theme.tileDrawn,
  };
  return (
    <div
      role="group"
      aria-label="Numbers"
      style={
        {
          '--game-cols': `repeat(${columns}, minmax(0, 1fr))`,
          '--number-cap': largeNumberCap(Math.ceil(numbers.length / columns)),
        } as CSSProperties
      }
      className="grid grid-cols-5 gap-2 sm:grid-cols-8 sm:gap-3 lg:min-h-48 lg:flex-1 lg:auto-rows-[minmax(0,1fr)] lg:grid-cols-(--game-cols) lg:[container-type:size]"
    >
      {numbers.map((number) => {
        const participant = selected.get(number);
        const state: TileState = drawnSet.has(number)
          ? participant
            ? 'winner'
            : 'drawn'
          : participant
            ? 'selected'
            : 'free';
        return (
          <button
            key={number}
            type="button"
            data-state={state}
            aria-pressed={participant !== undefined}
            aria-describedby={participant ? `participant-${number}` : undefined}
            disabled={locked}
            onClick={() => onPick(number)}
            className={`relative flex aspect-[4/3] min-h-12 flex-col items-center justify-center overflow-hidden rounded-xl font-black tabular-nums focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-yellow-300 disabled:cursor-default lg:aspect-auto lg:min-h-0 ${style[state]} ${numberSize(numbers.length)}`}
          >
            {/* Its size for the count of numbers (1em), or less when the row is short. */}
            <span className="lg:text-[length:min(1em,var(--number-cap))] lg:leading-none">{number}</span>
            {participant && (
              // Describes the tile; its name stays the number alone.
              <span
                id={`participant-${number}`}
                aria-hidden="true"
                className="hidden max-w-full truncate px-1 text-xs font-semibold sm:block lg:text-lg"
              >
                {shownName(participant.name, reveal)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
