import { CODE_PREFIX_MIN, PARTICIPANT_NAME_MIN, PARTICIPANT_PHONE_MIN, SEARCH_LIMIT } from '@lot/domain/search';
import { usernameKey } from '@lot/domain/username-key';
import type { SearchGame, SearchPerson, SearchResult } from '@lot/domain/schemas/search';
import type { Context } from '../../lib/context.ts';
import { gamesByCode, gamesByParticipant, peopleByUsernameKey, peopleMatching } from './search.repository.ts';

/** A game's number as people write it: `12` or `#12` (its shop's game number, decision 037). */
const GAME_NUMBER = /^#?(\d{1,10})$/;

/**
 * The header's search (docs/product/screens.md#header, decision 022): live people in the caller's
 * scope by username, full name or shop name, and the games the caller may read whose code is the
 * text or starts with it, whose shop game number it is (the same number at several shops finds
 * each of them; the list names the shop beside it), or one of whose participants has the text in
 * their name or the digits in their phone.
 */
export async function search(ctx: Context, q: string): Promise<SearchResult> {
  const [people, games] = await Promise.all([searchPeople(ctx, q), searchGames(ctx, q)]);
  return { people, games };
}

/**
 * How many of everyone's matches the admin's search ranks at most. A text most people match
 * ("pla" among 100,000 "Player …") would otherwise read and sort them all; the exact username is
 * looked up apart, so it is never lost among those left out. A narrower scope ranks all its
 * matches: there a limit would lead the planner to walk every user looking for a few in scope.
 */
const CANDIDATES = 200;

/**
 * People whose username or full name holds the text (search.repository.ts: `peopleMatching`).
 * The exact username comes first, then
 * usernames and full names that start with the text.
 */
async function searchPeople(ctx: Context, q: string): Promise<SearchPerson[]> {
  const { db, caller } = ctx;
  const [exact, candidates] = await Promise.all([
    peopleByUsernameKey(db, caller, usernameKey(q)),
    peopleMatching(db, caller, q, caller.role === 'admin' ? CANDIDATES : undefined),
  ]);
  const text = q.toLowerCase();
  const rank = (person: SearchPerson) =>
    person.username.toLowerCase().startsWith(text)
      ? 0
      : person.fullName.toLowerCase().startsWith(text)
        ? 1
        : person.shopName?.toLowerCase().startsWith(text)
          ? 2
          : 3;
  const ranked = candidates
    .filter((person) => !exact.some((e) => e.id === person.id))
    .sort((a, b) => rank(a) - rank(b) || byName(a, b));
  return [...exact, ...ranked].slice(0, SEARCH_LIMIT);
}

const byName = (a: SearchPerson, b: SearchPerson) =>
  a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : a.id - b.id;

/** A phone as people type it: digits, spaces, `+` and `-` (the participant form's rule). */
const PHONE_LIKE = /^[\d +-]+$/;
const LETTER = /\p{L}/u;

type Entry = { name?: unknown; phoneNumber?: unknown };

/**
 * Games by code (whole, or its first CODE_PREFIX_MIN characters or more: `game_rounds_code_prefix_idx`)
 * or number, and games by a participant (`game_rounds_entries_search_idx` over the names and phone
 * digits): two reads side by side, newest first, at most SEARCH_LIMIT in all.
 */
async function searchGames(ctx: Context, q: string): Promise<SearchGame[]> {
  const { db, caller } = ctx;
  const prefix = q.length >= CODE_PREFIX_MIN && !/\s/.test(q) ? q : undefined;
  const digitsOf = GAME_NUMBER.exec(q)?.[1];
  const number = digitsOf !== undefined && Number(digitsOf) <= 2_147_483_647 ? Number(digitsOf) : undefined;
  const digits = PHONE_LIKE.test(q) ? q.replace(/\D/g, '') : '';
  const name = LETTER.test(q) && q.length >= PARTICIPANT_NAME_MIN ? q : '';
  const participantText = name || (digits.length >= PARTICIPANT_PHONE_MIN ? digits : '');
  const [coded, played] = await Promise.all([
    gamesByCode(db, caller, { code: q, prefix, number }),
    participantText ? gamesByParticipant(db, caller, participantText) : [],
  ]);
  const seen = new Set(coded.map((game) => game.id));
  const found = [
    ...coded.map((game) => ({ game, participant: null })),
    ...played
      .filter((game) => !seen.has(game.id))
      .map((game) => ({ game, participant: matchingEntry(game.entries, name, digits) })),
  ];
  return found
    .sort((a, b) => b.game.createdAt.getTime() - a.game.createdAt.getTime() || b.game.id - a.game.id)
    .slice(0, SEARCH_LIMIT)
    .map(({ game: { entries: _entries, ...game }, participant }) => ({
      ...game,
      createdAt: game.createdAt.toISOString(),
      participant,
    }));
}

/** The first entry whose name holds the text, or whose phone holds the digits, as the game's screens show it. */
function matchingEntry(entries: unknown, name: string, digits: string): SearchGame['participant'] {
  const list = Array.isArray(entries) ? (entries as Entry[]) : [];
  const text = name.toLowerCase();
  for (const entry of list) {
    const entryName = typeof entry.name === 'string' ? entry.name : '';
    const phone = typeof entry.phoneNumber === 'string' ? entry.phoneNumber : '';
    if ((text && entryName.toLowerCase().includes(text)) || (digits && phone.replace(/\D/g, '').includes(digits))) {
      return { name: entryName, phoneNumber: phone };
    }
  }
  return null;
}
