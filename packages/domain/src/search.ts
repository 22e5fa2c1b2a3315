/**
 * The header search's bounds (decision 022), apart from its zod schemas so that the web's shell
 * can use them without loading zod.
 */

/** The longest search: longer than any username, full name or game code. */
export const SEARCH_MAX = 64;
/** At most this many people and this many games come back: the header shows them all at once. */
export const SEARCH_LIMIT = 8;
