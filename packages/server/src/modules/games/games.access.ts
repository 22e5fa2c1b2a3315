import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { gameRounds } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord } from '../users/users.access.ts';

/** What the rules need of a game: whose it is, and how far it went. */
type GameState = { userId: number; status: string };

const read = (caller: Caller): SQL | undefined => readableByRecord(caller, gameRounds);

/**
 * Who may do what with a server-run game (decisions 013, 036; docs/product/roles-and-scope.md):
 * every path of the games module asks here. Only shops play: opening a game, its participants,
 * its slips and the current game are the routes' `requireRole('user')`. A game outside the
 * caller's reach is a 404, as a missing one. `start` and `void` answer their refusal (null when
 * allowed), so the draw's plan can answer it without throwing.
 */
export const gamesAccess = {
  /**
   * Read a game (one, the lists and exports, a draw written from memory): the hierarchy recorded
   * with it when it opened (admin all), as for sales; undefined is no condition (the admin).
   */
  read,

  /** Watch a game on a customer display with a ticket (decision 046): whoever may read it. */
  watch: read,

  /**
   * Draw: the shop starts the draw of its open game (the freeze); once frozen, its upline and an
   * admin may finish it too (decision 036). The game was found in the caller's reach first.
   */
  start(caller: Caller, game: GameState): AppError | null {
    return game.status === 'open' && game.userId !== caller.id
      ? new AppError('FORBIDDEN', SERVER_MESSAGES.uplineCannotStart)
      : null;
  },

  /**
   * Void: before the freeze the shop or its upline discards the game; once frozen its outcome is
   * fixed, so only the upline or an admin may void it, never the shop (decision 036).
   */
  void(caller: Caller, game: GameState): AppError | null {
    return game.status === 'drawing' && game.userId === caller.id
      ? new AppError('FORBIDDEN', SERVER_MESSAGES.operatorCannotVoidFrozen)
      : null;
  },
};
