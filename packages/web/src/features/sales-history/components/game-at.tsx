import { gameTitle } from '@lot/domain/game';
import { dateTime } from '../../../lib/format.ts';

/**
 * A game's name and a time of it in one table cell: "Game #12 · Nov 23, 7:34 PM" on a wide table,
 * one under the other on a phone card. The number is its shop's game number (decision 037): the
 * rows of several shops have the shop beside it.
 */
export function GameAt({ number, at }: { number: number | null; at: string }) {
  return (
    <>
      <span data-testid="game-number" className="block font-semibold text-slate-900 md:inline">
        {gameTitle(number)}
      </span>
      <span className="hidden md:inline"> · </span>
      <time dateTime={at}>{dateTime(at)}</time>
    </>
  );
}
