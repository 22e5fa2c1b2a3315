import { gameRecordInconsistent } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import { settleGame, type GameWinner, type Participant, type PrizeSetting } from '@lot/domain/game';
import { formatCents } from '@lot/domain/money';
import type { SaleInput } from '@lot/domain/schemas/sales-history';

/* The check behind POST /api/sales-history, kept for the original client (decision 013). */

function inconsistent(message: string): AppError {
  return new AppError('UNPROCESSABLE', gameRecordInconsistent(message));
}

const winnerKey = (w: Pick<GameWinner, 'position' | 'number' | 'name' | 'phoneNumber' | 'prizeAmount'>) =>
  `${w.position}|${w.number}|${w.name}|${w.phoneNumber}|${w.prizeAmount}`;
const entryKey = (p: Participant) => `${p.number}|${p.name}|${p.phoneNumber}`;

/**
 * The body must describe the settled game exactly: its range, bet, participants, draws in order,
 * and the totals and winners LOT-DRAW-1's draws give with the prizes the game opened with.
 */
export function checkDescribes(
  input: SaleInput,
  game: { entries: Participant[]; drawn: number[] },
  prizes: PrizeSetting[],
) {
  const { gameData } = input;
  if (
    gameData.startRange !== input.startRange ||
    gameData.endRange !== input.endRange ||
    gameData.betAmount !== input.betAmount
  ) {
    throw inconsistent('the game data disagrees with the range or the bet');
  }
  const given = gameData.selectedNumbers.map(entryKey).sort();
  const held = game.entries.map(entryKey).sort();
  if (given.length !== held.length || given.some((key, i) => key !== held[i])) {
    throw inconsistent('the participants are not those of the game');
  }
  if (
    gameData.winningNumbers.length !== game.drawn.length ||
    gameData.winningNumbers.some((n, i) => n !== game.drawn[i]) ||
    gameData.drawCount !== game.drawn.length
  ) {
    throw inconsistent('the drawn numbers are not those the server drew');
  }
  const settlement = settleGame({
    selected: game.entries,
    drawn: game.drawn,
    settings: prizes,
    betCents: input.betAmount,
  });
  if (input.selectedNumbersCount !== game.entries.length) throw inconsistent('selectedNumbersCount is wrong');
  if (gameData.totalPrizePool !== settlement.pool) throw inconsistent(`the pool is ${formatCents(settlement.pool)}`);
  if (input.totalPrize !== settlement.totalPrize)
    throw inconsistent(`the total prize is ${formatCents(settlement.totalPrize)}`);
  if (input.commission !== settlement.commission)
    throw inconsistent(`the commission is ${formatCents(settlement.commission)}`);
  if (input.winningNumbersCount !== settlement.winners.length) throw inconsistent('winningNumbersCount is wrong');
  const expected = settlement.winners.map(winnerKey).sort();
  const winners = input.winners.map(winnerKey).sort();
  if (expected.length !== winners.length || expected.some((key, i) => key !== winners[i])) {
    throw inconsistent('the winners do not match the draw');
  }
}
