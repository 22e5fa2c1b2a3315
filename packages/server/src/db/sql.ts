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
