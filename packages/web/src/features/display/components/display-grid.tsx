import type { CSSProperties } from 'react';
import { numbersInRange } from '@lot/domain/game';
import type { GameDraw, GameProof } from '@lot/domain/schemas/games';
import type { GameTheme } from '../../../lib/game/game-theme.ts';
import { largeColumns } from '../../../components/game/number-grid.tsx';

function numberSize(count: number): string {
  if (count <= 30) return 'text-3xl sm:text-5xl lg:text-6xl 2xl:text-8xl';
  if (count <= 60) return 'text-2xl sm:text-4xl xl:text-5xl 2xl:text-6xl';
  return 'text-xl sm:text-2xl xl:text-3xl 2xl:text-4xl';
}

/** Every number of the range: sold ones carry their (masked) buyer, drawn ones their draw. */
export function DisplayGrid({
  proof,
  settled,
  justSettled,
  theme,
}: {
  proof: GameProof;
  settled: readonly GameDraw[];
  justSettled: number | null;
  theme: GameTheme;
}) {
  const numbers = numbersInRange(proof.startRange, proof.endRange);
  const sold = new Map(proof.entries.map((entry) => [entry.number, entry]));
  const drawn = new Map(settled.map((draw) => [draw.number, draw]));
  return (
    <ul
      aria-label="Numbers of the game"
      style={{ '--display-cols': `repeat(${largeColumns(numbers.length)}, minmax(0, 1fr))` } as CSSProperties}
      className="grid flex-1 grid-cols-5 gap-2 sm:grid-cols-8 sm:gap-3 lg:auto-rows-fr lg:grid-cols-(--display-cols)"
    >
      {numbers.map((number) => {
        const entry = sold.get(number);
        const draw = drawn.get(number);
        const state = draw ? (entry ? 'winner' : 'drawn') : entry ? 'sold' : 'free';
        const style =
          state === 'winner'
            ? theme.tileWinner
            : state === 'drawn'
              ? `${theme.tileDrawn.replace('line-through', '')} outline-4 outline-offset-2 outline-current`
              : state === 'sold'
                ? theme.tileSelected
                : theme.tile.replace(/hover:\S+/g, '');
        return (
          <li
            key={number}
            data-testid="display-number"
            data-number={number}
            data-state={state}
            className={`relative flex aspect-[4/3] min-h-12 flex-col items-center justify-center overflow-hidden rounded-xl font-black tabular-nums lg:aspect-auto ${style} ${numberSize(numbers.length)} ${
              draw && draw.position === justSettled ? 'display-settle' : ''
            }`}
          >
            <span className="leading-none">{number}</span>
            {(entry || draw) && (
              <span className="mt-1 hidden max-w-full truncate px-1 text-xs font-semibold sm:block lg:text-base 2xl:text-2xl">
                {entry ? entry.name : 'No winner'}
              </span>
            )}
            {draw && (
              <span className="absolute top-1 left-1.5 hidden rounded bg-black/70 px-1.5 text-xs font-bold text-white no-underline sm:block sm:text-sm 2xl:text-lg">
                Draw {draw.position}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
