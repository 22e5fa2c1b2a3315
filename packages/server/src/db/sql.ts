import { sql, type SQL } from 'drizzle-orm';

/** ` WHERE condition` for a hand-written statement, or nothing when there is no condition. */
export const whereClause = (condition: SQL | undefined): SQL => (condition ? sql` WHERE ${condition}` : sql``);

/** `text` with the ILIKE pattern characters in it (`\\`, `%`, `_`) taken literally. */
const literally = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An ILIKE pattern matching `text` anywhere, with the pattern characters in it taken literally. */
export function containsPattern(text: string): string {
  return `%${literally(text)}%`;
}

/** An ILIKE pattern matching `text` at the start, with the pattern characters in it taken literally. */
export function startsPattern(text: string): string {
  return `${literally(text)}%`;
}

/**
 * The SHA-256 (hex) of a jsonb value's text as PostgreSQL writes it: jsonb keeps one form (keys
 * sorted, duplicates dropped, one spacing), so the same stored value always gives the same text
 * and hash, on PGlite and PostgreSQL alike. A stored Z report's hash, written at its close and
 * compared by `audit:verify` (decision 087).
 */
export const jsonbHash = (value: SQL): SQL => sql`encode(sha256(convert_to((${value})::text, 'UTF8')), 'hex')`;
