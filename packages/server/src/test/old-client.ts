import type { Game } from '@lot/domain/schemas/games';
import { salePayload } from './game-fixtures.ts';

/**
 * salePayload as the original client sends it: its participants are number, name and phone. A
 * LOT-DRAW-2 game's entries also carry each person's nonce, which the compatibility path refuses as
 * a field it does not know (400) — salePayload copies the entries as they are.
 */
export function oldClientPayload(game: Game): ReturnType<typeof salePayload> {
  const entries = game.entries.map(({ number, name, phoneNumber }) => ({ number, name, phoneNumber }));
  return salePayload({ ...game, entries: entries as Game['entries'] });
}
