import { useMutation } from '@tanstack/react-query';
import { settleGame, type Participant, type PrizeSetting } from '@lot/domain/game';
import { formatCents, type Cents } from '@lot/domain/money';
import type { SaleDetail } from '@lot/domain/schemas/sales-history';
import { api, ApiError } from '../../../lib/api-client.ts';

/** A finished game as the play screen holds it. */
export type FinishedGame = {
  userId: number;
  startRange: number;
  endRange: number;
  betCents: Cents;
  selected: Participant[];
  drawn: number[];
  settings: PrizeSetting[];
  /** Fixed when the game started, so every attempt (and a reload) settles the same game once. */
  gameKey: string;
};

/** POST /api/sales-history's payload (spec section 7): money as two-decimal strings. */
export function saleRequest(game: FinishedGame) {
  const result = settleGame({
    selected: game.selected,
    drawn: game.drawn,
    settings: game.settings,
    betCents: game.betCents,
  });
  const betAmount = formatCents(game.betCents);
  return {
    userId: game.userId,
    startRange: game.startRange,
    endRange: game.endRange,
    betAmount,
    totalPrize: formatCents(result.totalPrize),
    commission: formatCents(result.commission),
    selectedNumbersCount: game.selected.length,
    winningNumbersCount: result.winners.length,
    gameData: {
      selectedNumbers: game.selected,
      winningNumbers: game.drawn,
      drawCount: game.drawn.length,
      totalPrizePool: formatCents(result.pool),
      startRange: game.startRange,
      endRange: game.endRange,
      betAmount,
    },
    winners: result.winners.map((w) => ({
      number: w.number,
      name: w.name,
      phoneNumber: w.phoneNumber,
      position: w.position,
      prizeAmount: formatCents(w.prizeAmount),
    })),
  };
}

/** Settles the game: the server records it and takes the pool from the balance, once per game key. */
export function recordGame(game: FinishedGame): Promise<SaleDetail> {
  return api<SaleDetail>('/api/sales-history', { method: 'POST', body: saleRequest(game), idempotent: game.gameKey });
}

/** Worth another try with the same key: the network, a rate limit or the server failed, not a refusal. */
export function isRetriable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}

export const SETTLE_RETRIES = 3;

/**
 * A game is never silently lost: a failed save is tried again (same key, so at most once on the
 * server) after 1, 2 and 4 seconds before the screen says it could not be saved.
 */
export function useRecordGame() {
  return useMutation({
    mutationFn: recordGame,
    retry: (failures, error) => failures < SETTLE_RETRIES && isRetriable(error),
    retryDelay: (failures) => 1000 * 2 ** (failures - 1),
  });
}
