import { and, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { CODE_PREFIX_MIN, PARTICIPANT_NAME_MIN, PARTICIPANT_PHONE_MIN, SEARCH_LIMIT } from '@lot/domain/search';
import { usernameKey } from '@lot/domain/username-key';
import type { SearchGame, SearchPerson, SearchResult } from '@lot/domain/schemas/search';
import type { Db } from '../../db/client.ts';
import { gameRounds, users } from '../../db/schema.ts';
import { containsPattern, startsPattern } from '../../db/sql.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord, scopeCondition } from '../users/users.access.ts';

/** A game's number as people write it: `12` or `#12` (its shop's game number, decision 037). */
const GAME_NUMBER = /^#?(\d{1,10})$/;

/**
 * The header's search (docs/product/screens.md#header, decision 022): live people in the caller's
 * scope by username, full name or shop name, and the games the caller may read whose code is the
 * text or starts with it, whose shop game number it is (the same number at several shops finds
 * each of them; the list names the shop beside it), or one of whose participants has the text in
 * their name or the digits in their phone.
 */
export async function search(db: Db, caller: Caller, q: string): Promise<SearchResult> {
  const [people, games] = await Promise.all([searchPeople(db, caller, q), searchGames(db, caller, q)]);
  return { people, games };
}

/** Texts shorter than a trigram cannot narrow a substring search through the trigram indexes. */
const TRIGRAM = 3;
/**
 * How many of everyone's matches the admin's search ranks at most. A text most people match
 * ("pla" among 100,000 "Player …") would otherwise read and sort them all; the exact username is
 * looked up apart, so it is never lost among those left out. A narrower scope ranks all its
 * matches: there a limit would lead the planner to walk every user looking for a few in scope.
 */
const CANDIDATES = 200;

/**
 * People whose username or full name holds the text; a text of one or two characters matches the
 * start of the username or of a word of the full name instead, which the trigram indexes still
 * answer (a substring that short would read every user). The exact username comes first, then
 * usernames and full names that start with the text.
 */
async function searchPeople(db: Db, caller: Caller, q: string): Promise<SearchPerson[]> {
  const starts = startsPattern(q);
  const wordStarts = `% ${starts}`;
  const matches =
    q.length >= TRIGRAM
      ? sql`(${users.username} ILIKE ${containsPattern(q)} OR ${users.fullName} ILIKE ${containsPattern(q)} OR ${users.shopName} ILIKE ${containsPattern(q)})`
      : sql`(${users.username} ILIKE ${starts} OR ${users.fullName} ILIKE ${starts} OR ${users.fullName} ILIKE ${wordStarts}
          OR ${users.shopName} ILIKE ${starts} OR ${users.shopName} ILIKE ${wordStarts})`;
  const columns = {
    id: users.id,
    username: users.username,
    fullName: users.fullName,
    role: users.role,
    status: users.status,
    shopName: users.shopName,
  };
  const scope = scopeCondition(caller);
  const [exact, candidates] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .where(and(scope, eq(users.usernameKey, usernameKey(q)))),
    caller.role === 'admin'
      ? db.select(columns).from(users).where(and(scope, matches)).limit(CANDIDATES)
      : db.select(columns).from(users).where(and(scope, matches)),
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
async function searchGames(db: Db, caller: Caller, q: string): Promise<SearchGame[]> {
  const byCode: SQL[] = [eq(gameRounds.code, q)];
  if (q.length >= CODE_PREFIX_MIN && !/\s/.test(q)) byCode.push(like(gameRounds.code, startsPattern(q)));
  const number = GAME_NUMBER.exec(q)?.[1];
  if (number !== undefined && Number(number) <= 2_147_483_647) {
    byCode.push(eq(gameRounds.number, Number(number)));
  }
  const digits = PHONE_LIKE.test(q) ? q.replace(/\D/g, '') : '';
  const name = LETTER.test(q) && q.length >= PARTICIPANT_NAME_MIN ? q : '';
  const participantText = name || (digits.length >= PARTICIPANT_PHONE_MIN ? digits : '');
  const [coded, played] = await Promise.all([
    gamesWhere(db, caller, or(...byCode)),
    participantText ? gamesWhere(db, caller, participantCandidates(db, caller, participantText)) : [],
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

/**
 * How many games holding a participant's text are ranked at most (newest first among them): a name
 * half the games hold would otherwise read and sort all of them (decision 050).
 */
const PARTICIPANT_CANDIDATES = 200;

function participantCandidates(db: Db, caller: Caller, text: string): SQL {
  const matches = sql`game_entries_search_text(${gameRounds.entries}) ILIKE ${containsPattern(text)}`;
  return inArray(
    gameRounds.id,
    db
      .select({ id: gameRounds.id })
      .from(gameRounds)
      .where(and(matches, readableByRecord(caller, gameRounds)))
      .limit(PARTICIPANT_CANDIDATES),
  );
}

function gamesWhere(db: Db, caller: Caller, matches: SQL | undefined) {
  return db
    .select({
      id: gameRounds.id,
      number: gameRounds.number,
      code: gameRounds.code,
      status: gameRounds.status,
      saleId: gameRounds.saleId,
      createdAt: gameRounds.createdAt,
      entries: gameRounds.entries,
      player: { id: users.id, username: users.username, fullName: users.fullName },
    })
    .from(gameRounds)
    .innerJoin(users, eq(users.id, gameRounds.userId))
    .where(and(matches, readableByRecord(caller, gameRounds)))
    .orderBy(desc(gameRounds.createdAt), desc(gameRounds.id))
    .limit(SEARCH_LIMIT);
}
