/**
 * The header search's bounds (decision 022), apart from its zod schemas so that the web's shell
 * can use them without loading zod.
 */

/** The longest search: longer than any username, full name or game code. */
export const SEARCH_MAX = 64;
/** At most this many people and this many games come back: the header shows them all at once. */
export const SEARCH_LIMIT = 8;
/** A game's code is found by its first characters from this many on (shorter would match too many). */
export const CODE_PREFIX_MIN = 4;
/** A participant is found by a name from this many characters, or a phone from this many digits. */
export const PARTICIPANT_NAME_MIN = 3;
export const PARTICIPANT_PHONE_MIN = 4;
