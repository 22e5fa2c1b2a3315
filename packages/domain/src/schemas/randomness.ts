import { z } from 'zod';

/**
 * The admin's view of where games get their randomness (decisions 033 and 061): the beacon as this
 * process sees it, the sticky rule of DRAW_BEACON=auto, the admin's explicit permission for
 * LOT-DRAW-1, and the LOT-DRAW-1 games of the last days per shop.
 */

/** How many days the per-shop count of LOT-DRAW-1 games looks back (as the dashboard's other figures). */
export const SERVER_RANDOMNESS_DAYS = 30;

const personSchema = z.object({ id: z.number(), username: z.string(), fullName: z.string() });

export const drawRandomnessSchema = z.object({
  /** DRAW_BEACON of this process. */
  mode: z.enum(['required', 'auto', 'off']),
  /** The pinned chain's hash (null with mode off). */
  chain: z.string().nullable(),
  /** Whether that chain is drand quicknet, the one the verify page trusts without a pin. */
  quicknet: z.boolean(),
  /** Whether the relays answer this process now. */
  beaconUp: z.boolean(),
  /** Whether this database has opened a LOT-DRAW-2 game: from then on `auto` refuses like `required`. */
  lotDraw2Played: z.boolean(),
  /** The admin's explicit permission for LOT-DRAW-1 while the beacon is down (decision 061). */
  serverRandomnessAllowed: z.boolean(),
  /** The last change of that permission: when and by whom (null: never changed). */
  changed: z.object({ at: z.string(), by: personSchema.nullable() }).nullable(),
  /** What a game opened now gets: LOT-DRAW-2, LOT-DRAW-1, or refused (503) until the beacon answers. */
  newGames: z.enum(['LOT-DRAW-2', 'LOT-DRAW-1', 'refused']),
  /** How many days `serverRandomnessByShop` looks back (SERVER_RANDOMNESS_DAYS). */
  days: z.number(),
  /** LOT-DRAW-1 games opened in the last `days` days (neither voided nor discarded), per shop, most first. */
  serverRandomnessByShop: z.array(z.object({ shop: personSchema, games: z.number() })),
});
export type DrawRandomness = z.infer<typeof drawRandomnessSchema>;

export const setServerRandomnessSchema = z.strictObject({
  allowed: z.boolean({ error: 'Allowed must be true or false' }),
});
export type SetServerRandomness = z.infer<typeof setServerRandomnessSchema>;
