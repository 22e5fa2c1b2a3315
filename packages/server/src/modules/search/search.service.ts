import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMIT } from '@lot/domain/search';
import { usernameKey } from '@lot/domain/username-key';
import type { SearchGame, SearchPerson, SearchResult } from '@lot/domain/schemas/search';
import type { Db } from '../../db/client.ts';
import { gameRounds, users } from '../../db/schema.ts';
import { containsPattern, startsPattern } from '../../db/sql.ts';
import type { Caller } from '../../plugins/auth.ts';
import { readableByRecord, scopeCondition } from '../users/users.access.ts';

/** A game's number as people write it: `12` or `#12` (its shop's game number, decision 037). */
const GAME_NUMBER = /^#?(\d{1,10})$/;

/**
 * The header's search (docs/product/screens.md#header, decision 022): live people in the caller's
 * scope, and the games the caller may read whose code is the text or whose shop game number it is
 * (the same number at several shops finds each of them; the list names the shop beside it).
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
  const matches =
    q.length >= TRIGRAM
      ? sql`(${users.username} ILIKE ${containsPattern(q)} OR ${users.fullName} ILIKE ${containsPattern(q)})`
      : sql`(${users.username} ILIKE ${starts} OR ${users.fullName} ILIKE ${starts} OR ${users.fullName} ILIKE ${`% ${starts}`})`;
  const columns = {
    id: users.id,
    username: users.username,
    fullName: users.fullName,
    role: users.role,
    status: users.status,
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
  const rank = (person: SearchPerson) =>
    person.username.toLowerCase().startsWith(q.toLowerCase())
      ? 0
      : person.fullName.toLowerCase().startsWith(q.toLowerCase())
        ? 1
        : 2;
  const ranked = candidates
    .filter((person) => !exact.some((e) => e.id === person.id))
    .sort((a, b) => rank(a) - rank(b) || byName(a, b));
  return [...exact, ...ranked].slice(0, SEARCH_LIMIT);
}

const byName = (a: SearchPerson, b: SearchPerson) =>
  a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : a.id - b.id;

async function searchGames(db: Db, caller: Caller, q: string): Promise<SearchGame[]> {
  const matches: SQL[] = [eq(gameRounds.code, q)];
  const number = GAME_NUMBER.exec(q)?.[1];
  if (number !== undefined && Number(number) <= 2_147_483_647) {
    matches.push(eq(gameRounds.number, Number(number)));
  }
  const rows = await db
    .select({
      id: gameRounds.id,
      number: gameRounds.number,
      code: gameRounds.code,
      status: gameRounds.status,
      saleId: gameRounds.saleId,
      createdAt: gameRounds.createdAt,
      player: { id: users.id, username: users.username, fullName: users.fullName },
    })
    .from(gameRounds)
    .innerJoin(users, eq(users.id, gameRounds.userId))
    .where(and(or(...matches), readableByRecord(caller, gameRounds)))
    .orderBy(desc(gameRounds.createdAt), desc(gameRounds.id))
    .limit(SEARCH_LIMIT);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
