import { useCallback, useState } from 'react';
import { z } from 'zod';
import { GAME_RULES, type Participant, type PrizeSetting } from '@lot/domain/game';
import { formatCents, parseAmountToCents, type Cents } from '@lot/domain/money';
import { participantSchema } from '@lot/domain/schemas/sales-history';
import { STORAGE_KEYS } from '../../../lib/storage.ts';

/** A prize position as the game was started with it (the name is for the screen only). */
export type GamePrize = PrizeSetting & { name: string };

export type GameState = {
  userId: number;
  startRange: number;
  endRange: number;
  betCents: Cents;
  selected: Participant[];
  drawn: number[];
  /** Set by the first draw: the settlement's Idempotency-Key and the prizes the game pays. */
  gameKey: string | null;
  prizes: GamePrize[] | null;
  /** The sales-history record once the game is saved. */
  saleId: number | null;
};

const storedGameSchema = z.object({
  userId: z.number().int(),
  startRange: z.number().int().min(GAME_RULES.minNumber).max(GAME_RULES.maxNumber),
  endRange: z.number().int().min(GAME_RULES.minNumber).max(GAME_RULES.maxNumber),
  drawn: z.array(z.number().int()).max(GAME_RULES.maxNumber),
  gameKey: z.string().min(1).nullable(),
  prizes: z.array(z.object({ position: z.number().int(), percentBps: z.number().int(), name: z.string() })).nullable(),
  saleId: z.number().int().nullable(),
});

function readJson(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

export function freshGame(userId: number): GameState {
  return {
    userId,
    startRange: GAME_RULES.defaultStart,
    endRange: GAME_RULES.defaultEnd,
    betCents: GAME_RULES.defaultBetCents,
    selected: [],
    drawn: [],
    gameKey: null,
    prizes: null,
    saleId: null,
  };
}

/**
 * The game as the browser kept it (spec section 3: `selectedNumbers` and `betAmount`, plus our
 * `numberGame` with the range, the draws and the settlement key), so a reload — even in the middle
 * of saving — carries on with the same game. Another user's or unreadable leftovers are dropped.
 */
export function loadGame(userId: number): GameState {
  const game = freshGame(userId);
  const stored = storedGameSchema.safeParse(readJson(STORAGE_KEYS.numberGame));
  if (stored.success && stored.data.userId !== userId) {
    clearStoredGame();
    return game;
  }
  const selected = z
    .array(participantSchema)
    .max(GAME_RULES.maxNumber)
    .safeParse(readJson(STORAGE_KEYS.selectedNumbers));
  if (selected.success) game.selected = selected.data;
  const bet = parseAmountToCents(localStorage.getItem(STORAGE_KEYS.betAmount));
  if (bet !== null && bet >= GAME_RULES.minBetCents) game.betCents = bet;
  if (stored.success && stored.data.startRange < stored.data.endRange) {
    Object.assign(game, stored.data, { userId });
  }
  // A stored selection outside the stored range cannot be played; start that game over.
  if (game.selected.some((p) => p.number < game.startRange || p.number > game.endRange)) {
    clearStoredGame();
    return freshGame(userId);
  }
  return game;
}

/** Nothing chosen and the default bet are stored as no entry, as after a reset. */
function saveGame(game: GameState) {
  if (game.selected.length > 0) {
    localStorage.setItem(STORAGE_KEYS.selectedNumbers, JSON.stringify(game.selected));
  } else {
    localStorage.removeItem(STORAGE_KEYS.selectedNumbers);
  }
  if (game.betCents !== GAME_RULES.defaultBetCents) {
    localStorage.setItem(STORAGE_KEYS.betAmount, formatCents(game.betCents));
  } else {
    localStorage.removeItem(STORAGE_KEYS.betAmount);
  }
  const { selected: _selected, betCents: _bet, ...rest } = game;
  localStorage.setItem(STORAGE_KEYS.numberGame, JSON.stringify(rest));
}

export function clearStoredGame() {
  localStorage.removeItem(STORAGE_KEYS.selectedNumbers);
  localStorage.removeItem(STORAGE_KEYS.betAmount);
  localStorage.removeItem(STORAGE_KEYS.numberGame);
}

/** The game in play, written to localStorage with every change (a draw is never lost to a reload). */
export function useGameState(userId: number) {
  const [game, setGame] = useState(() => loadGame(userId));

  const update = useCallback((change: (game: GameState) => GameState) => {
    setGame((current) => {
      const next = change(current);
      saveGame(next);
      return next;
    });
  }, []);

  /**
   * Reset Game: clears the selection, the draws and the counter and what the browser kept of them
   * (the bet goes back to the default); the range stays for the next game.
   */
  const reset = useCallback(() => {
    clearStoredGame();
    setGame((current) => {
      const next = { ...freshGame(userId), startRange: current.startRange, endRange: current.endRange };
      saveGame(next);
      return next;
    });
  }, [userId]);

  return { game, update, reset };
}
