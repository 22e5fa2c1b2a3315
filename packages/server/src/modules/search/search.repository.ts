import { and, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMIT } from '@lot/domain/search';
import type { SearchPerson } from '@lot/domain/schemas/search';
import type { Db, Tx } from '../../db/client.ts';
import { gameRounds, users } from '../../db/schema.ts';
import { containsPattern, startsPattern } from '../../db/sql.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord, scopeCondition } from '../users/users.access.ts';

/** The header search's reads (decision 022): people in the caller's scope, games it may read. */

/** Texts shorter than a trigram cannot narrow a substring search through the trigram indexes. */
const TRIGRAM = 3;

const personColumns = {
  id: users.id,
  username: users.username,
  fullName: users.fullName,
  role: users.role,
  status: users.status,
  shopName: users.shopName,
};

/** The live person in the caller's scope with exactly this username key. */
export function peopleByUsernameKey(db: Db | Tx, caller: Caller, key: string): Promise<SearchPerson[]> {
  return db
    .select(personColumns)
    .from(users)
    .where(and(scopeCondition(caller), eq(users.usernameKey, key)));
}

/**
 * People whose username or full name holds the text; a text of one or two characters matches the
 * start of the username or of a word of the full name instead, which the trigram indexes still
 * answer (a substring that short would read every user). At most `limit` when given.
 */
export function peopleMatching(
  db: Db | Tx,
  caller: Caller,
  q: string,
  limit: number | undefined,
): Promise<SearchPerson[]> {
  const starts = startsPattern(q);
  const wordStarts = `% ${starts}`;
  const matches =
    q.length >= TRIGRAM
      ? sql`(${users.username} ILIKE ${containsPattern(q)} OR ${users.fullName} ILIKE ${containsPattern(q)} OR ${users.shopName} ILIKE ${containsPattern(q)})`
      : sql`(${users.username} ILIKE ${starts} OR ${users.fullName} ILIKE ${starts} OR ${users.fullName} ILIKE ${wordStarts}
          OR ${users.shopName} ILIKE ${starts} OR ${users.shopName} ILIKE ${wordStarts})`;
  const scope = scopeCondition(caller);
  return limit !== undefined
    ? db.select(personColumns).from(users).where(and(scope, matches)).limit(limit)
    : db.select(personColumns).from(users).where(and(scope, matches));
}

/** Games the caller may read whose code is `code`, or starts with `prefix`, or whose number is `number`; newest first. */
export function gamesByCode(db: Db | Tx, caller: Caller, find: { code: string; prefix?: string; number?: number }) {
  const byCode: SQL[] = [eq(gameRounds.code, find.code)];
  if (find.prefix !== undefined) byCode.push(like(gameRounds.code, startsPattern(find.prefix)));
  if (find.number !== undefined) byCode.push(eq(gameRounds.number, find.number));
  return gamesWhere(db, caller, or(...byCode));
}

/** Games the caller may read one of whose participants holds the text (name or phone digits); newest first. */
export function gamesByParticipant(db: Db | Tx, caller: Caller, text: string) {
  return gamesWhere(db, caller, participantCandidates(db, caller, text));
}

/**
 * How many games holding a participant's text are ranked at most (newest first among them): a name
 * half the games hold would otherwise read and sort all of them (decision 050).
 */
const PARTICIPANT_CANDIDATES = 200;

function participantCandidates(db: Db | Tx, caller: Caller, text: string): SQL {
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

function gamesWhere(db: Db | Tx, caller: Caller, matches: SQL | undefined) {
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
