import { z } from 'zod';
import { ROLES } from '../roles.ts';
import { SEARCH_MAX } from '../search.ts';
import { GAME_STATUSES } from './games.ts';

/** GET /api/search?q= (docs/product/screens.md#header). */
export const searchQuerySchema = z.strictObject({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, 'Type something to search for')
    .max(SEARCH_MAX, `A search is at most ${SEARCH_MAX} characters`),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchPersonSchema = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.string(),
  role: z.enum(ROLES),
  status: z.enum(['active', 'inactive']),
  /** A shop's name (users; others may have one too): the search matches it. */
  shopName: z.string().nullable(),
});
export type SearchPerson = z.infer<typeof searchPersonSchema>;

export const searchGameSchema = z.object({
  /** The server-run game's id. */
  id: z.number(),
  /** Its shop's game number ("Game #N"; decision 037): beside the player's name, since shops repeat numbers. */
  number: z.number(),
  /** Its public code: the verify page's address. */
  code: z.string(),
  status: z.enum(GAME_STATUSES),
  /** Its sales-history record, once settled. */
  saleId: z.number().nullable(),
  createdAt: z.string(),
  player: z.object({ id: z.number(), username: z.string(), fullName: z.string() }),
  /**
   * The participant the search found the game by (their name, or their phone's digits), as the
   * game's own screens show it to the caller; null when the code or the number matched.
   */
  participant: z.object({ name: z.string(), phoneNumber: z.string() }).nullable(),
});
export type SearchGame = z.infer<typeof searchGameSchema>;

/** People in the caller's scope and games the caller may read that match the search. */
export const searchResultSchema = z.object({
  people: z.array(searchPersonSchema),
  games: z.array(searchGameSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
